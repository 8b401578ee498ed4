// The room's other pages, each at its own address (#private, #invite/CODE, #sitgo/CODE,
// #tournament/ID, #hands, #hand/ID, #rules/RULES): private tables and their host's controls,
// private sit & gos and their invites, the tournament lobby, the hand history with its
// replayer and downloads, and the rules.
import { api, app, connect, defaultBuyIn, ensureAccount, h, keep, keptText, noteTournament, openTable, rematchOffer, reopenSocket, send, session, showWho, sitAt, takeKeptSeat, tournamentState, watch, words } from "./app.js";
import { cardSvg, cardText } from "./cards.js";
import { handContext } from "./i18n.js";
import { rulesPage } from "./rules.js";

const RULES = ["italian-classic", "italian-32", "holdem"];
const main = () => document.getElementById("main");
const say = (it, en) => words.pick(it, en);

/**
 * A page: `draw()` gives its content; it is drawn again on a language switch, on `redraw()`,
 * and when `key()` (what it shows of the tables the socket follows) changes.
 */
function page(draw, { load, leave, key } = {}) {
  let drawnIn = null;
  let drawnKey = null;
  let loaded = false;
  const self = {
    timers: [],
    async open() { loaded = false; if (load) await load(self); loaded = true; drawnIn = null; },
    // A table's message may ask for a render while the page loads: it is drawn once loaded.
    update() {
      if (!loaded) return;
      if (drawnIn !== words.lang || (key && key() !== drawnKey && !self.editing())) self.redraw();
    },
    redraw() {
      if (app.page !== self) return; // the player went elsewhere meanwhile
      drawnIn = words.lang;
      drawnKey = key ? key() : null;
      main().replaceChildren(h("div", { class: "page" }, self.accountless ? needsAccount() : draw(self)));
    },
    /** The page's account, a guest's made if need be; refused (the reason is said under the
     * header), the page says it needs one rather than showing itself empty. */
    async account() {
      self.accountless = !(await ensureAccount());
      return !self.accountless;
    },
    accountless: false,
    /** The player is typing in one of the page's fields (a poll must not redraw it away). */
    editing() {
      const focused = document.activeElement;
      return Boolean(focused && ["INPUT", "SELECT"].includes(focused.tagName) && main().contains(focused));
    },
    every(seconds, work) {
      const timer = setInterval(async () => {
        if (app.page !== self) { clearInterval(timer); if (leave) leave(); return; }
        try { await work(); } catch (error) { console.warn(error); }
      }, seconds * 1000);
      self.timers.push(timer);
    },
  };
  return self;
}

/** The page an address opens, or null for the lobby and the tables (app.js). */
export function pageFor(hash) {
  const [name, arg] = hash.replace(/^#/, "").split("/");
  switch (name) {
    case "private": return arg ? privateTablePage(Number(arg)) : privateTablesPage();
    case "invite": return invitePage(arg);
    case "sitgo": return sitAndGoInvitePage(arg);
    case "tournament": return tournamentPage(Number(arg));
    case "hands": return handsPage();
    case "hand": return replayPage(Number(arg));
    case "rules": return rulesPage(RULES.includes(arg) ? arg : currentRules(), page);
    default: return null;
  }
}

function currentRules() {
  // From a table: that table's game (route() asks before it leaves the table).
  const table = app.tables[app.current] || app.tables[Object.keys(app.tables)[0]];
  return table?.rules || "italian-classic";
}

/** What a page that is a player's own shows a visitor who has no account and can have none
 * made now (the room's limit of new accounts per address): the log-in is above. */
function needsAccount() {
  return h("p", { class: "note needs-account", role: "status" },
    say("Questa pagina è di chi ha un account: accedi con il tuo, in alto.", "This page is for players with an account: log in with yours, above."));
}

function problem(error) {
  return h("p", { class: "error", role: "alert" }, error?.message || String(error || ""));
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

function numberInput(name, value, { min = 0, max } = {}) {
  return h("input", { type: "number", name, value, min, max, step: 1, required: true });
}

function stakesOf(rules, values) {
  // The forced bets each rule set has: the invito, or the blinds (buio and controbuio).
  if (rules === "italian-classic") return [["ante", say("Invito", "Invito"), values.ante]];
  const [small, big] = rules === "italian-32" ? ["Buio", "Controbuio"] : [say("Piccolo buio", "Small blind"), say("Grande buio", "Big blind")];
  return [["small_blind", small, values.small_blind], ["big_blind", big, values.big_blind]];
}

function readStakes(form, rules) {
  const stakes = { small_blind: 0, big_blind: 0, ante: 0 };
  for (const [key] of stakesOf(rules, {})) stakes[key] = Number(form.elements[key].value);
  return stakes;
}

function inviteAddress(code) {
  return `${location.origin}/#invite/${code}`;
}

/** How many players a table of ``rules`` seats at most, as the room's rule sets say. */
function seatsOf(state, rules) {
  return state.ruleSets?.[rules]?.max_players ?? 9;
}

/** A field of seats or players kept within what the chosen rule set seats; its value. */
function fitSeats(input, most) {
  input.max = most;
  if (Number(input.value) > most) input.value = most;
  return Number(input.value);
}

/** The page a private sit & go's invite opens (the room's `invite_link` is its API's). */
function sitAndGoAddress(code) {
  return `${location.origin}/#sitgo/${code}`;
}

/** An invite's address in a field, with its button to copy it. */
function inviteField(self, state, address) {
  const link = h("input", { type: "text", readonly: true, value: address, class: "invite-link", "aria-label": say("Link d'invito", "Invite link") });
  const copy = h("button", { type: "button", class: "copy" }, state.copied ? say("Copiato", "Copied") : say("Copia il link", "Copy the link"));
  copy.addEventListener("click", async () => {
    link.select();
    try { await navigator.clipboard.writeText(address); } catch { document.execCommand?.("copy"); }
    state.copied = true; self.redraw();
  });
  return h("div", { class: "actions" }, link, copy);
}

// ------------------------------------------------------------- private tables

function privateTablesPage() {
  // The new table's form keeps what the host typed across a redraw (the room's refusal said
  // under it, a language switch); the rest is the room's home game for the rules chosen.
  const state = { tables: [], error: "", tableDraft: { rules: "italian-classic" }, sitAndGos: [], sitAndGoDraft: sitAndGoDefaults(), sitAndGoError: "", listError: "" };
  return page((self) => {
    const d = state.tableDraft;
    const values = () => ({ ...(state.ruleSets?.[d.rules]?.home_game ?? {}), ...d });
    const rules = h("select", { name: "rules", "aria-label": words.t("rules") },
      RULES.map((r) => h("option", { value: r, selected: r === d.rules }, words.t(r))));
    const stakes = h("div", { class: "stakes" });
    const showStakes = () => stakes.replaceChildren(...stakesOf(d.rules, values()).map(
      ([key, label, value]) => field(label, numberInput(key, value, { min: 0 }))));
    showStakes();
    const v = values();
    const toggle = (name, on, label) => h("label", { class: "toggle" }, h("input", { type: "checkbox", name, checked: on }), " ", label);
    const form = h("form", { class: "create-private", "aria-label": say("Nuovo tavolo privato", "New private table") },
      field(say("Nome", "Name"), h("input", { type: "text", name: "name", required: true, maxlength: 40, value: d.name ?? say("Partita tra amici", "Home game") })),
      field(words.t("rules"), rules),
      field(words.t("seats"), numberInput("seats", d.seats ?? Math.min(5, seatsOf(state, d.rules)), { min: 2, max: seatsOf(state, d.rules) })),
      stakes,
      field(say("Buy-in minimo", "Minimum buy-in"), numberInput("min_buy_in", v.min_buy_in, { min: 1 })),
      field(say("Buy-in massimo", "Maximum buy-in"), numberInput("max_buy_in", v.max_buy_in, { min: 1 })),
      field(say("Secondi per decidere", "Seconds to decide"), numberInput("decision_seconds", v.decision_seconds, { min: 5, max: 300 })),
      field(say("Riserva di tempo (s)", "Time bank (s)"), numberInput("time_bank_seconds", v.time_bank_seconds, { min: 0, max: 600 })),
      toggle("bots_allowed", d.bots_allowed ?? true, say("Bot ammessi", "Bots allowed")),
      toggle("approval_required", d.approval_required ?? true, say("Approvo io chi si siede", "I approve who sits")),
      toggle("hints_allowed", d.hints_allowed ?? false, say("Suggerimenti ammessi", "Hints allowed")),
      state.error ? problem(state.error) : null,
      h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, say("Crea il tavolo", "Create the table"))));
    const keep = (event) => {
      const input = event.target;
      if (!input.name) return;
      d[input.name] = input.type === "checkbox" ? input.checked : input.value;
      if (input.name === "rules") { // the new game's own forced bets, from its home game
        for (const key of ["small_blind", "big_blind", "ante"]) delete d[key];
        showStakes();
        d.seats = fitSeats(form.elements.seats, seatsOf(state, input.value));
      }
    };
    form.addEventListener("input", keep);
    form.addEventListener("change", keep);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const e = form.elements;
      const body = {
        name: e.name.value, rules: e.rules.value, seats: Number(e.seats.value),
        ...readStakes(form, e.rules.value),
        min_buy_in: Number(e.min_buy_in.value), max_buy_in: Number(e.max_buy_in.value),
        decision_seconds: Number(e.decision_seconds.value), time_bank_seconds: Number(e.time_bank_seconds.value),
        bots_allowed: e.bots_allowed.checked, approval_required: e.approval_required.checked,
        hints_allowed: e.hints_allowed.checked,
      };
      try {
        const table = await api("POST", "/api/private-tables", body);
        location.hash = `#private/${table.id}`;
      } catch (error) {
        state.error = error;
        self.redraw();
      }
    });
    return [
      h("h2", {}, say("Tavoli privati", "Private tables")),
      h("p", { class: "note" }, say("Un tavolo solo per chi inviti: scegli le regole e condividi il link.",
        "A table only for the people you invite: choose the rules and share the link.")),
      form,
      h("h3", {}, say("I tuoi tavoli privati", "Your private tables")),
      state.tables.length
        ? h("ul", { class: "private-tables" }, state.tables.map((t) => h("li", {},
          h("a", { href: `#private/${t.id}` }, t.name), ` · ${words.t(t.rules)} · ${t.stakes.label} · `,
          t.state === "closed" ? [h("span", { class: "closed" }, say("chiuso", "closed")), " · "] : null,
          t.you_are_host ? say("sei l'host", "you host it") : `${say("host", "host")} ${t.host}`)))
        : h("p", { class: "note" }, say("Nessuno per ora.", "None yet.")),
      h("h2", { class: "sit-and-go-heading" }, say("Sit & go privati", "Private sit & gos")),
      h("p", { class: "note" }, say("Un torneo a un tavolo tra amici: parte quando tutti i posti sono presi, o quando lo decidi tu.",
        "A one-table tournament among friends: it starts when every place is taken, or when you say so.")),
      h("h3", {}, say("Nuovo sit & go privato", "New private sit & go")),
      sitAndGoForm(self, state),
      h("h3", {}, say("I tuoi sit & go privati", "Your private sit & gos")),
      state.listError ? problem(state.listError) : null,
      state.sitAndGos.length
        ? h("ul", { class: "private-sit-and-gos" }, state.sitAndGos.map((t) => h("li", { "data-sit-and-go": t.id, "data-state": t.state },
          h("a", { href: `#tournament/${t.id}` }, t.name), ` · ${words.t(t.rules)} · `,
          h("span", { class: "sit-and-go-state" }, tournamentState(t.state)),
          ` · ${t.registered}/${t.max_players} ${say("iscritti", "registered")} · `,
          t.you_are_host ? say("sei l'host", "you host it") : `${say("host", "host")} ${t.host}`)))
        : h("p", { class: "note" }, say("Nessuno per ora.", "None yet.")),
    ];
  }, {
    async load(self) {
      if (!(await self.account())) return;
      const [tables, sitAndGos, ruleSets] = await Promise.all([
        api("GET", "/api/private-tables"),
        api("GET", "/api/private-sit-and-gos").catch((error) => { state.listError = error; return { sit_and_gos: [] }; }),
        api("GET", "/api/rule-sets").catch(() => ({ rule_sets: [] })), // (the room's own refusal says it otherwise)
      ]);
      state.ruleSets = Object.fromEntries(ruleSets.rule_sets.map((r) => [r.name, r]));
      state.sitAndGoDraft.players = Math.min(state.sitAndGoDraft.players, seatsOf(state, state.sitAndGoDraft.rules));
      state.tables = tables.tables;
      state.sitAndGos = sitAndGos.sit_and_gos;
    },
  });
}

/** The new private sit & go form's values before the host changes them (the room's defaults,
 * six places). */
function sitAndGoDefaults() {
  return { name: null, rules: "italian-classic", players: 6, buy_in: 100, starting_stack: 1000, level_length: 10,
    level_unit: "hands", breaks: false, break_every: 4, break_minutes: 5, host_plays: true };
}

/** The form of a new private sit & go: what the host typed is kept across a redraw (a
 * language switch, the room's refusal said under it). */
function sitAndGoForm(self, state) {
  const d = state.sitAndGoDraft;
  const select = (name, label, options) => h("select", { name, "aria-label": label },
    options.map(([value, text]) => h("option", { value, selected: d[name] === value }, text)));
  const breakInputs = [numberInput("break_every", d.break_every, { min: 1, max: 20 }), numberInput("break_minutes", d.break_minutes, { min: 1, max: 60 })];
  for (const input of breakInputs) input.disabled = !d.breaks; // (not asked for, not checked)
  const breakFields = h("div", { class: "group break-fields", hidden: !d.breaks },
    field(say("Pausa ogni (livelli)", "A break every (levels)"), breakInputs[0]),
    field(say("Minuti di pausa", "Break minutes"), breakInputs[1]));
  const form = h("form", { class: "create-sit-and-go", "aria-label": say("Nuovo sit & go privato", "New private sit & go") },
    field(say("Nome", "Name"), h("input", { type: "text", name: "name", required: true, maxlength: 40, value: d.name ?? say("Sit & go tra amici", "Friends' sit & go") })),
    field(words.t("rules"), select("rules", words.t("rules"), RULES.map((r) => [r, words.t(r)]))),
    field(words.t("players"), numberInput("players", d.players, { min: 2, max: seatsOf(state, d.rules) })),
    field("Buy-in", numberInput("buy_in", d.buy_in, { min: 0, max: 100000000 })),
    field(say("Fiches iniziali", "Starting chips"), numberInput("starting_stack", d.starting_stack, { min: 1 })),
    h("div", { class: "group" },
      field(say("Durata dei livelli", "Level length"), numberInput("level_length", d.level_length, { min: 1, max: 120 })),
      field(say("Unità", "Unit"), select("level_unit", say("Unità dei livelli", "Unit of the levels"),
        [["hands", say("mani", "hands")], ["minutes", say("minuti", "minutes")]]))),
    h("label", { class: "toggle" }, h("input", { type: "checkbox", name: "breaks", checked: d.breaks }), " ", say("Con le pause", "With breaks")),
    breakFields,
    h("label", { class: "toggle" }, h("input", { type: "checkbox", name: "host_plays", checked: d.host_plays }), " ",
      say("Gioco anch'io (pago subito il buy-in)", "I play too (I pay the buy-in now)")),
    state.sitAndGoError ? problem(state.sitAndGoError) : null,
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, say("Crea il sit & go", "Create the sit & go"))));
  const keep = (event) => {
    const input = event.target;
    if (!input.name) return;
    d[input.name] = input.type === "checkbox" ? input.checked : input.value;
    if (input.name === "rules") d.players = fitSeats(form.elements.players, seatsOf(state, input.value));
    if (input.name === "breaks") {
      breakFields.hidden = !input.checked;
      for (const other of breakInputs) other.disabled = !input.checked;
    }
  };
  form.addEventListener("input", keep);
  form.addEventListener("change", keep);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const e = form.elements;
    const body = {
      name: e.name.value, rules: e.rules.value, players: Number(e.players.value),
      buy_in: Number(e.buy_in.value), starting_stack: Number(e.starting_stack.value),
      level_unit: e.level_unit.value, level_length: Number(e.level_length.value),
      break_every: e.breaks.checked ? Number(e.break_every.value) : 0,
      host_plays: e.host_plays.checked,
    };
    if (e.breaks.checked) body.break_minutes = Number(e.break_minutes.value);
    try {
      const made = await api("POST", "/api/private-sit-and-gos", body);
      state.sitAndGoError = "";
      location.hash = `#tournament/${made.id}`;
    } catch (error) {
      state.sitAndGoError = error;
      self.redraw();
    }
  });
  return form;
}

function privateTablePage(id) {
  const state = { table: null, requests: [], settle: null, error: "", copied: false, sentAway: new Set(), buyIn: null, stakesTyped: {}, closing: false };
  const refresh = async () => {
    const found = (await api("GET", "/api/private-tables")).tables.find((t) => t.id === id);
    state.table = found || null;
    if (found?.you_are_host) state.requests = await api("GET", `/api/private-tables/${id}/requests`);
    try { state.settle = await api("GET", `/api/private-tables/${id}/settle-up`); }
    catch { state.settle = null; } // nobody has sat yet, or the viewer never did
    const bots = botsAt(found);
    for (const name of state.sentAway) if (!bots.includes(name)) state.sentAway.delete(name);
  };
  const hostDoes = async (self, path, body, method = "POST") => {
    try { state.error = ""; await api(method, `/api/private-tables/${id}/${path}`, body); await refresh(); }
    catch (error) { state.error = error; }
    self.redraw();
  };
  const sendAway = async (self, name) => {
    state.sentAway.add(name); // it leaves at the end of the hand being played
    await hostDoes(self, `bots/${encodeURIComponent(name)}`, undefined, "DELETE");
    if (state.error) state.sentAway.delete(name);
  };
  return page((self) => {
    const table = state.table;
    if (!table) return [h("h2", {}, say("Tavolo privato", "Private table")), problem(say("Tavolo non trovato.", "No such table."))];
    const seated = app.tables[String(id)]?.seats?.some((s) => s.name === app.me);
    const parts = [
      h("h2", {}, `${table.name} · ${words.t(table.rules)}`),
      h("dl", { class: "facts" },
        h("dt", {}, words.t("stakes")), h("dd", { class: "stakes-now" }, table.stakes.label,
          table.next_stakes ? ` → ${table.next_stakes.label} ${say("dalla prossima mano", "from the next hand")}` : ""),
        h("dt", {}, words.t("seats")), h("dd", { class: "seats-taken" }, `${table.players + table.bots}/${table.seats} (${table.bots} bot)`,
          // Friends on its waiting list: the host may send a bot away for them.
          table.waiting ? say(` · ${table.waiting} in lista d'attesa`, ` · ${table.waiting} waiting`) : ""),
        h("dt", {}, "Buy-in"), h("dd", {}, `${table.min_buy_in}–${table.max_buy_in}`),
        h("dt", {}, say("Stato", "State")), h("dd", { class: "table-state" }, tableStateWord(table.state),
          // Bots play only with people: alone there, they deal no hand (the room's rule).
          table.bots && !table.players ? say(" · i bot aspettano che si sieda qualcuno", " · the bots wait for someone to sit down") : ""),
        h("dt", {}, "Host"), h("dd", {}, table.host)),
    ];
    if (table.state === "closed") {
      // Closed for good: nothing more is played or asked here; the accounts stay.
      parts.push(h("p", { class: "note closed-note" }, say("Il tavolo è chiuso: qui non si gioca più. I conti restano qui sotto.",
        "The table is closed: no more hands here. Its accounts stay below.")),
      h("h3", {}, say("Conti", "Settle-up")), settleUp(state.settle));
      return parts;
    }
    parts.push(h("h3", {}, say("Invita gli amici", "Invite your friends")),
      inviteField(self, state, inviteAddress(table.invite_code)),
      h("p", { class: "note" }, `${say("Codice", "Code")}: `, h("code", {}, table.invite_code)),
      state.error ? problem(state.error) : null);
    if (table.you_are_host) {
      parts.push(h("div", { class: "actions host-controls" },
        seated
          ? h("button", { type: "button", class: "primary go-table", onclick: () => openTable(String(id)) }, say("Vai al tavolo", "Go to the table"))
          : hostSits(self, state, table),
        table.state === "paused"
          ? h("button", { type: "button", class: "resume", onclick: () => hostDoes(self, "resume") }, say("Riprendi", "Resume"))
          : h("button", { type: "button", class: "pause", onclick: () => hostDoes(self, "pause") }, say("Pausa dopo questa mano", "Pause after this hand")),
        table.bots_allowed && table.players + table.bots < table.seats
          ? h("button", { type: "button", class: "add-bot", onclick: () => hostDoes(self, "bots", { count: 1, kind: "basic" }) }, say("Aggiungi un bot", "Add a bot"))
          : null,
        // Closing is for good: asked twice (the room refuses while anyone plays there).
        state.closing
          ? [h("button", { type: "button", class: "close-table danger", onclick: async () => { state.closing = false; await hostDoes(self, "close"); } },
            say("Sì, chiudi per sempre", "Yes, close it for good")),
          h("button", { type: "button", class: "keep-open", onclick: () => { state.closing = false; self.redraw(); } }, say("No, lascialo aperto", "No, keep it open"))]
          : h("button", { type: "button", class: "ask-close", onclick: () => { state.closing = true; state.error = ""; self.redraw(); } },
            say("Chiudi il tavolo", "Close the table"))));
      const bots = botsAt(table);
      if (bots.length) {
        // Each bot with its button to send it away (it leaves between hands).
        parts.push(h("h3", {}, say("Bot al tavolo", "Bots at the table")),
          h("ul", { class: "bots" }, bots.map((name) => h("li", { "data-bot": name }, name, " ",
            state.sentAway.has(name)
              ? h("span", { class: "note leaving" }, say("esce a fine mano", "leaves after this hand"))
              : h("button", { type: "button", class: "remove-bot", "aria-label": say(`Manda via il bot ${name}`, `Send the bot ${name} away`),
                onclick: () => sendAway(self, name) }, say("Manda via", "Send away"))))));
      }
      // What the host typed stays in the form until the room takes it (a refusal is said
      // under the form, the values still there to put right).
      const stakes = h("form", { class: "change-stakes", "aria-label": say("Cambia le poste", "Change the stakes") },
        stakesOf(table.rules, { ...table.stakes, ...state.stakesTyped }).map(([key, label, value]) => field(label, numberInput(key, value))),
        h("button", { type: "submit" }, say("Cambia le poste", "Change the stakes")));
      stakes.addEventListener("input", (event) => { if (event.target.name) state.stakesTyped[event.target.name] = event.target.value; });
      stakes.addEventListener("submit", async (event) => {
        event.preventDefault();
        await hostDoes(self, "stakes", readStakes(stakes, table.rules));
        if (!state.error) { state.stakesTyped = {}; self.redraw(); }
      });
      parts.push(h("h3", {}, say("Poste", "Stakes")), stakes);
      parts.push(h("h3", {}, say("Richieste per sedersi", "Requests to sit")),
        state.requests.length
          ? h("table", { class: "requests" }, h("tbody", {}, state.requests.map((r) => h("tr", { "data-request": r.id, "data-player": r.player },
            h("td", {}, r.player), h("td", {}, `buy-in ${r.buy_in}`), h("td", { class: "request-state" }, requestState(r.state)),
            h("td", {}, r.state === "pending" ? [
              h("button", { type: "button", class: "approve primary", onclick: () => hostDoes(self, `requests/${r.id}/approve`) }, say("Approva", "Approve")), " ",
              h("button", { type: "button", class: "refuse", onclick: () => hostDoes(self, `requests/${r.id}/refuse`) }, say("Rifiuta", "Refuse"))] : null)))))
          : h("p", { class: "note" }, say("Nessuna richiesta.", "No request.")));
    } else {
      parts.push(h("p", {}, h("a", { href: `#invite/${table.invite_code}` }, say("La tua richiesta", "Your request"))));
    }
    parts.push(h("h3", {}, say("Conti", "Settle-up")), settleUp(state.settle));
    return parts;
  }, {
    async load(self) {
      if (!(await self.account())) return;
      await refresh();
      if (state.table?.you_are_host && state.table.state !== "closed" && !app.tables[String(id)]) {
        // The host follows the table to know its bots by name, seated or not (a closed
        // table has none, and after a restart no task to follow).
        await connect();
        send({ type: "watch", table: String(id) });
      }
      self.every(3, async () => {
        const before = JSON.stringify(state, (_, v) => (v instanceof Set ? [...v] : v));
        await refresh();
        if (JSON.stringify(state, (_, v) => (v instanceof Set ? [...v] : v)) !== before && !self.editing()) self.redraw();
      });
    },
    key: () => JSON.stringify(botsAt(state.table)), // a bot came or left: the seats event said so
    leave() {
      // Off the page: stop watching, unless the host went to sit at the table.
      const table = app.tables[String(id)];
      if (table && app.current !== String(id) && !table.seats.some((s) => s.name === app.me)) {
        send({ type: "unwatch", table: String(id) });
        delete app.tables[String(id)];
      }
    },
  });
}

/** The host sits at their table with the buy-in they choose (within its limits and the
 * balance; twice the minimum unless they choose). */
function hostSits(self, state, table) {
  const most = Math.min(table.max_buy_in, app.account?.balance ?? table.max_buy_in);
  const amount = numberInput("host_buy_in", state.buyIn ?? defaultBuyIn(table, app.account?.balance), { min: table.min_buy_in, max: most });
  amount.setAttribute("aria-label", say("Buy-in dell'host", "The host's buy-in"));
  amount.addEventListener("input", () => { state.buyIn = amount.value; });
  const sit = () => {
    const buyIn = Number(amount.value);
    if (!Number.isInteger(buyIn) || buyIn < table.min_buy_in || buyIn > most) {
      // Said in the page's language when drawn (a switch too), as the room's refusals are.
      state.error = { get message() { return say(`Il buy-in va da ${table.min_buy_in} a ${most}.`, `The buy-in is from ${table.min_buy_in} to ${most}.`); } };
      self.redraw();
      return;
    }
    sitAt(table, { bots: false, buyIn });
  };
  return [h("label", { class: "toggle" }, "Buy-in ", amount),
    h("button", { type: "button", class: "primary sit-host", onclick: sit }, say("Siediti al tavolo", "Sit at the table"))];
}

/** The names of the bots at a private table: its seats that the room says are a bot's, named
 * as the table's `seats` event names them (the host follows the table, seated or not). */
function botsAt(table) {
  const seats = app.tables[String(table?.id)]?.seats || [];
  return seats.filter((s) => table.bot_seats.includes(s.seat)).map((s) => s.name);
}

function tableStateWord(state) {
  return { paused: say("in pausa", "paused"), closed: say("chiuso", "closed") }[state] || say("aperto", "open");
}

function requestState(state) {
  return { pending: say("in attesa", "pending"), approved: say("approvata", "approved"), refused: say("rifiutata", "refused") }[state] || state;
}

function settleUp(settle) {
  if (!settle || (!settle.players.length && !settle.bots)) return h("p", { class: "note" }, say("Nessuno ha ancora comprato fiches.", "Nobody has bought chips yet."));
  const sign = (n) => (n > 0 ? `+${n}` : String(n));
  return h("table", { class: "settle-up" },
    h("thead", {}, h("tr", {}, [say("Giocatore", "Player"), say("Comprato", "Bought in"), say("Incassato", "Cashed out"),
      say("Fiches ora", "Chips now"), say("Risultato", "Result")].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, [...settle.players, ...(settle.bots ? [{ ...settle.bots, player: "bot" }] : [])].map((line) => h("tr", { "data-player": line.player },
      h("td", {}, line.player), h("td", {}, line.bought_in), h("td", {}, line.cashed_out), h("td", {}, line.stack),
      h("td", { class: line.result >= 0 ? "plus" : "minus" }, sign(line.result))))),
    h("tfoot", {},
      settle.in_pot ? h("tr", {}, h("td", { colspan: 4 }, say("Nel piatto ora", "In the pot now")), h("td", {}, settle.in_pot)) : null,
      settle.rake ? h("tr", {}, h("td", { colspan: 4 }, "Rake"), h("td", {}, settle.rake)) : null));
}

function invitePage(code) {
  const state = { table: null, error: "" };
  const refresh = async () => {
    try { state.table = await api("GET", `/api/invites/${encodeURIComponent(code)}`); state.error = ""; }
    catch (error) { state.table = null; state.error = error; }
  };
  return page((self) => {
    const table = state.table;
    if (!table) return [h("h2", {}, say("Invito", "Invite")), problem(state.error)];
    const parts = [
      h("h2", {}, `${table.name} · ${words.t(table.rules)}`),
      h("p", {}, say(`${table.host} ti invita al suo tavolo privato.`, `${table.host} invites you to a private table.`)),
      h("dl", { class: "facts" },
        h("dt", {}, words.t("stakes")), h("dd", {}, table.stakes.label),
        h("dt", {}, words.t("seats")), h("dd", {}, `${table.players + table.bots}/${table.seats}`),
        h("dt", {}, "Buy-in"), h("dd", {}, `${table.min_buy_in}–${table.max_buy_in}`)),
    ];
    const request = table.your_request;
    const seated = app.tables[String(table.id)]?.seats?.some((s) => s.name === app.me);
    if (table.you_are_host) {
      parts.push(h("p", {}, h("a", { href: `#private/${table.id}` }, say("Il tuo tavolo", "Your table"))));
    } else if (seated) {
      parts.push(h("button", { type: "button", class: "primary go-table", onclick: () => openTable(String(table.id)) }, say("Vai al tavolo", "Go to the table")));
    } else if (request && request.state === "approved") {
      if (table.approval_required) parts.push(h("p", { class: "request-state" }, say("L'host ti ha accettato.", "The host let you in.")));
      parts.push(...invitedSeat(table, request.buy_in, async (join) => {
        const refused = await waitAtInvited(table, request.buy_in, join);
        await refresh();
        if (refused) state.error = refused; // (said once the page is read again)
        self.redraw();
      }));
    } else if (request && request.state === "pending") {
      parts.push(h("p", { class: "request-state", "aria-live": "polite" }, say("Richiesta inviata: aspetta che l'host ti accetti…", "Request sent: waiting for the host to let you in…")));
    } else {
      if (request?.state === "refused") parts.push(h("p", { class: "request-state" }, say("L'host ha rifiutato la richiesta.", "The host refused the request.")));
      const buyIn = numberInput("buy_in", defaultBuyIn(table), { min: table.min_buy_in, max: table.max_buy_in });
      // A table that takes whoever has its invite (one hosted from a terminal, say): its
      // request is approved at once, so the one click sits the friend down.
      const open = !table.approval_required;
      const form = h("form", { class: "ask-to-sit" }, field("Buy-in", buyIn),
        h("button", { type: "submit", class: "primary" }, open ? say("Siediti", "Sit down") : say("Chiedi di sederti", "Ask to sit")));
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          const asked = await api("POST", `/api/invites/${encodeURIComponent(code)}/requests`, { buy_in: Number(buyIn.value) });
          // (at a full table the page then offers its waiting list)
          if (open && asked.state === "approved" && table.open_seats > 0) return sitAt(table, { bots: false, buyIn: asked.buy_in });
          await refresh();
        } catch (error) { state.error = error; }
        self.redraw();
      });
      parts.push(form);
    }
    if (state.error) parts.push(problem(state.error));
    return parts;
  }, {
    async load(self) {
      if (!(await self.account())) return;
      await refresh();
      self.every(2, async () => {
        const shown = (t) => JSON.stringify([t?.your_request, t?.open_seats, t?.you_wait, Boolean(t?.seat_kept_seconds)]);
        const before = shown(state.table);
        await refresh();
        if (shown(state.table) !== before) self.redraw();
      });
    },
  });
}

/**
 * An approved player's way to their seat at a private table: sit down with the approved
 * buy-in; at a full table (every seat taken, or the free ones kept for those waiting
 * before them), its waiting list, their place, and the seat once the room keeps it for them.
 */
function invitedSeat(table, buyIn, wait) {
  const id = String(table.id);
  const sitWith = `${say("Siediti con", "Sit down with")} ${buyIn}`;
  if (table.seat_kept_seconds) keep(id, table.seat_kept_seconds); // (learnt here after a reload too)
  if (app.kept[id] !== undefined) {
    app.invitedWaits[id] = { table, buyIn };
    return [h("button", { type: "button", class: "primary sit-invited kept", onclick: () => takeKeptSeat(id) },
      `${sitWith} · ${say("il posto è tuo", "the seat is yours")} `,
      h("span", { class: "clock", "data-kept-clock": id }, keptText(id)))];
  }
  if (table.open_seats > 0) {
    return [h("button", { type: "button", class: "primary sit-invited", onclick: () => sitAt(table, { bots: false, buyIn }) }, sitWith)];
  }
  if (table.you_wait) {
    return [
      h("p", { class: "request-state waiting-place", "aria-live": "polite" }, say(
        `Il tavolo è pieno: sei ${table.you_wait}° in lista d'attesa. Il primo posto che si libera è tenuto per te: te lo diciamo qui e in cima alla pagina.`,
        `The table is full: you are number ${table.you_wait} on its waiting list. The first seat that frees is kept for you: this page and the line at its top say so.`)),
      h("button", { type: "button", class: "unwait", onclick: () => wait(false) }, words.t("leaveList", table.you_wait))];
  }
  return [
    h("p", { class: "request-state" }, say("Il tavolo è pieno.", "The table is full.")),
    h("button", { type: "button", class: "primary wait", onclick: () => wait(true) }, words.t("waitingList"))];
}

/** Join (or leave) a private table's waiting list from its invite; the room's refusal, if
 * any.  The socket is opened first: the room tells the player over it when a seat is kept
 * for them. */
async function waitAtInvited(table, buyIn, join) {
  await connect();
  try {
    await api(join ? "POST" : "DELETE", `/api/tables/${table.id}/waiting-list`);
  } catch (error) { return error; }
  if (join) app.invitedWaits[String(table.id)] = { table, buyIn };
  else delete app.invitedWaits[String(table.id)];
  return null;
}

/** How long its levels are, the first one's stakes and its breaks, in a line. */
function levelsSaid(sg) {
  const first = sg.levels[0];
  if (!first) return "";
  const minutes = sg.level_unit === "minutes";
  const length = minutes ? say(`${first.length} minuti`, `${first.length} minutes`) : say(`${first.length} mani`, `${first.length} hands`);
  const stakes = first.ante ? `${say("invito", "invito")} ${first.ante}` : `${say("bui", "blinds")} ${first.small_blind}/${first.big_blind}`;
  const breaks = sg.levels.filter((level) => level.break_minutes).length;
  return [say(`${length} per livello, il primo a ${stakes}`, `${length} a level, the first at ${stakes}`),
    breaks ? say(`, con le pause di ${sg.levels.find((l) => l.break_minutes).break_minutes} minuti`, `, with ${sg.levels.find((l) => l.break_minutes).break_minutes}-minute breaks`) : ""].join("");
}

/**
 * A private sit & go's invite (#sitgo/CODE): what it is, who registered and the places left,
 * and the registration (the buy-in paid; a visitor is made a guest first).  Registered, the
 * player goes to its page, or to its table when they took its last place.
 */
function sitAndGoInvitePage(code) {
  const state = { sg: null, error: "", going: false };
  const path = `/api/sit-and-go-invites/${encodeURIComponent(code)}`;
  const refresh = async () => {
    try { state.sg = await api("GET", path); state.error = ""; }
    catch (error) { state.sg = null; state.error = error; }
  };
  return page((self) => {
    const sg = state.sg;
    if (!sg) {
      const unknown = state.error?.code === "no_such_invite";
      return [h("h2", {}, say("Invito a un sit & go", "Invite to a sit & go")),
        problem(unknown ? say("Questo codice d'invito non apre nessun sit & go.", "This invite code opens no sit & go.") : state.error)];
    }
    const left = Math.max(0, sg.max_players - sg.registered);
    const register = async () => {
      let now;
      try {
        now = await api("POST", `${path}/registration`);
      } catch (error) {
        await refresh(); // the places and the state as they are now, the refusal said
        if (state.sg) state.error = error;
        self.redraw();
        return;
      }
      await session(); // the buy-in paid: the header's balance
      showWho();
      if (now.state === "running") { state.going = true; await toTheTable(); return; } // the last place: it starts
      location.hash = `#tournament/${now.id}`;
    };
    const parts = [
      h("h2", {}, `${sg.name} · ${words.t(sg.rules)}`),
      h("p", {}, sg.you_are_host
        ? say("Il tuo sit & go privato.", "Your private sit & go.")
        : say(`${sg.host} ti invita al suo sit & go privato.`, `${sg.host} invites you to a private sit & go.`)),
      h("dl", { class: "facts" },
        h("dt", {}, "Buy-in"), h("dd", { class: "buy-in" }, sg.fee ? `${sg.buy_in} + ${sg.fee}` : sg.buy_in),
        h("dt", {}, say("Fiches iniziali", "Starting chips")), h("dd", { class: "starting-stack" }, sg.starting_stack),
        h("dt", {}, say("Livelli", "Levels")), h("dd", { class: "level-length" }, levelsSaid(sg)),
        h("dt", {}, "Host"), h("dd", { class: "host" }, sg.host),
        h("dt", {}, words.t("players")), h("dd", { class: "entrants-count" }, `${sg.registered}/${sg.max_players}`),
        h("dt", {}, say("Stato", "State")), h("dd", { class: "tournament-state", "data-state": sg.state }, tournamentState(sg.state))),
      h("h3", {}, say("Iscritti", "Registered")),
      sg.players.length ? h("ul", { class: "entrants" }, sg.players.map((p) => h("li", { "data-player": p }, p)))
        : h("p", { class: "note" }, say("Nessuno ancora.", "Nobody yet.")),
    ];
    if (sg.state === "registering") {
      parts.push(h("p", { class: "note places-left" }, left === 1 ? say("Un posto libero.", "One place left.") : say(`Posti liberi: ${left}.`, `Places left: ${left}.`)));
    }
    if (state.error) parts.push(problem(state.error));
    if (sg.you_are_registered || sg.you_are_host) {
      parts.push(h("p", {}, h("a", { href: `#tournament/${sg.id}`, class: "to-sit-and-go" },
        sg.you_are_registered ? say("Sei iscritto: vai al sit & go", "You are registered: go to the sit & go") : say("Vai al tuo sit & go", "Go to your sit & go"))));
    }
    if (sg.state === "registering" && !sg.you_are_registered && left > 0) {
      parts.push(h("div", { class: "actions" }, h("button", { type: "button", class: "primary register-sit-and-go", onclick: register },
        sg.buy_in ? say(`Iscriviti (buy-in ${sg.buy_in})`, `Register (buy-in ${sg.buy_in})`) : say("Iscriviti", "Register"))));
    } else if (sg.state !== "registering" && !sg.you_are_registered && !sg.you_are_host) {
      parts.push(h("p", { class: "note closed" }, say("Le iscrizioni sono chiuse.", "Registration is closed.")));
    }
    return parts;
  }, {
    async load(self) {
      if (!(await self.account())) return; // a visitor becomes a guest to register
      await refresh();
      self.every(3, async () => {
        if (!state.sg) return;
        const before = JSON.stringify(state.sg);
        const waiting = state.sg.you_are_registered && state.sg.state === "registering";
        const error = state.error;
        await refresh();
        if (error && state.sg) state.error = error; // a refusal stays said
        if (waiting && state.sg?.state === "running" && !state.going) { state.going = true; await toTheTable(); return; } // it started
        if (JSON.stringify(state.sg) !== before) self.redraw();
      });
    },
  });
}

// ------------------------------------------------------------- the tournament lobby

function tournamentPage(id) {
  // `own`: the private sit & go this is, as its host or a player has it (null: a lobby's
  // tournament).
  const state = { t: null, error: "", going: false, own: null, copied: false, confirmCancel: false };
  const refresh = async () => {
    state.t = await api("GET", `/api/tournaments/${id}`);
    noteTournament(state.t);
    await session();
    showWho();
    await readOwn();
  };
  // A private sit & go (the room shows it only to its host and its players): its invite and
  // its host's controls.
  const readOwn = async () => {
    if (!state.t?.private) return;
    try { state.own = await api("GET", `/api/private-sit-and-gos/${id}`); }
    catch (error) { console.warn("room:", error.message); }
  };
  // It filled and started: the socket's welcome (opened again) names the player's table.
  const goToTable = async () => {
    state.going = true;
    await toTheTable();
  };
  return page((self) => {
    const t = state.t;
    if (!t) return [h("h2", {}, "Sit & go"), problem(state.error)];
    const minutes = (n) => `${n} ${n === 1 ? say("minuto", "minute") : say("minuti", "minutes")}`;
    const length = (n) => (t.level_unit !== "hands" ? minutes(n) : `${n} ${n === 1 ? say("mano", "hand") : say("mani", "hands")}`);
    const stakes = (l) => (t.rules === "italian-classic" ? `invito ${l.ante}` : `${l.small_blind}/${l.big_blind}${l.ante ? ` ante ${l.ante}` : ""}`);
    const register = async () => {
      try {
        if (!(await ensureAccount())) return; // a visitor becomes a guest to register (the reason said above)
        const joining = !t.you_are_registered;
        await api(joining ? "POST" : "DELETE", `/api/tournaments/${id}/registration`);
        state.error = "";
        if (!joining && state.own && !state.own.you_are_host) {
          // Out of a private sit & go: only its invite shows it now (and registers again).
          location.hash = `#sitgo/${state.own.invite_code}`;
          return;
        }
        await refresh();
        if (joining && state.t.state === "running" && !state.going) return await goToTable(); // the last seat: it starts
      } catch (error) { state.error = error; }
      self.redraw();
    };
    const mine = ownTables(t);
    const own = state.own;
    return [
      h("h2", {}, t.name),
      own ? h("p", { class: "note private-sit-and-go" }, own.you_are_host
        ? say("Il tuo sit & go privato: lo vedono solo gli invitati.", "Your private sit & go: only those you invite see it.")
        : say(`Sit & go privato di ${own.host}.`, `A private sit & go hosted by ${own.host}.`)) : null,
      h("dl", { class: "facts" },
        h("dt", {}, words.t("rules")), h("dd", {}, words.t(t.rules)),
        h("dt", {}, "Buy-in"), h("dd", {}, t.fee ? `${t.buy_in} + ${t.fee}` : t.buy_in),
        own ? [h("dt", {}, "Host"), h("dd", { class: "host" }, own.host)] : null,
        h("dt", {}, say("Fiches iniziali", "Starting chips")), h("dd", {}, t.starting_stack),
        h("dt", {}, words.t("players")), h("dd", { class: "entrants-count" }, `${t.registered}/${t.max_players}`),
        h("dt", {}, say("Montepremi", "Prize pool")), h("dd", { class: "prize-pool" }, t.prize_pool),
        h("dt", {}, say("Stato", "State")), h("dd", { class: "tournament-state", "data-state": t.state }, tournamentState(t.state)),
        // A scheduled tournament starts at its time (a sit & go when it is full).
        t.starts_at ? [h("dt", {}, say("Inizio", "Starts")), h("dd", { class: "starts-at" }, new Date(t.starts_at).toLocaleString(words.lang))] : null),
      own && own.state === "registering" ? privateSitAndGo(self, state, id, { refresh, goToTable }) : null,
      own && ["finished", "cancelled"].includes(own.state) ? rematchOf(self, state) : null,
      state.error ? problem(state.error) : null,
      t.state === "registering"
        ? h("button", { type: "button", class: `primary ${t.you_are_registered ? "unregister" : "register"}`, onclick: register },
          t.you_are_registered ? say("Annulla l'iscrizione", "Unregister") : say("Iscriviti", "Register"))
        : null,
      mine.length ? h("button", { type: "button", class: "primary go-table", onclick: () => openTable(mine[0]) }, say("Vai al tuo tavolo", "Go to your table")) : null,
      h("div", { class: "columns" },
        h("section", { "aria-label": say("Livelli", "Levels") }, h("h3", {}, say("Struttura", "Structure")),
          t.level ? h("p", { class: "note current-level" }, t.on_break
            ? say(`In pausa: si riprende al livello ${t.level}.`, `On a break: play resumes at level ${t.level}.`)
            : say(`In corso: livello ${t.level}.`, `Playing now: level ${t.level}.`)) : null,
          h("table", { class: "levels" },
            h("thead", {}, h("tr", {}, [say("Livello", "Level"), words.t("stakes"), say("Durata", "Length")].map((c) => h("th", { scope: "col" }, c)))),
            h("tbody", {}, t.levels.flatMap((l) => [h("tr", l.number === t.level ? { class: "current", "aria-current": "step" } : {},
              h("td", {}, l.number), h("td", {}, stakes(l)), h("td", {}, length(l.length))),
              // A break follows the level (each table pauses on its own when it gets there).
              l.break_minutes ? h("tr", { class: "break" }, h("td", {}), h("td", {}, say("Pausa", "Break")),
                h("td", {}, minutes(l.break_minutes))) : null].filter(Boolean))))),
        h("section", { "aria-label": say("Premi", "Payouts") }, h("h3", {}, say("Premi", "Payouts")),
          h("table", { class: "payouts" }, h("tbody", {}, t.payouts.map((prize, i) => h("tr", {}, h("td", {}, `${i + 1}°`), h("td", {}, prize))))),
          t.state === "registering" ? h("p", { class: "note payouts-note" }, say(
            "I posti pagati e i premi dipendono dagli iscritti alla partenza.",
            "The places paid and the prizes depend on the players at the start.")) : null),
        h("section", { "aria-label": say("Iscritti", "Entrants") }, h("h3", {}, say("Iscritti", "Entrants")),
          t.players.length ? h("ul", { class: "entrants" }, t.players.map((p) => h("li", { "data-player": p }, p,
            own?.host === p ? h("span", { class: "note" }, " · host") : null))) : h("p", { class: "note" }, say("Nessuno ancora.", "Nobody yet."))),
        h("section", { "aria-label": say("Classifica", "Standings") }, h("h3", {}, say("Classifica", "Standings")),
          t.standings.length
            ? h("table", { class: "standings" },
              h("thead", {}, h("tr", {}, [say("Posto", "Place"), say("Giocatore", "Player"), say("Fiches", "Chips"), say("Premio", "Prize")].map((c) => h("th", { scope: "col" }, c)))),
              h("tbody", {}, t.standings.map((s) => h("tr", { "data-player": s.player },
                h("td", {}, s.place ?? "–"), h("td", {}, s.player), h("td", {}, s.place === null ? s.chips : "–"), h("td", { class: "prize" }, s.prize)))))
            : h("p", { class: "note" }, say("Dopo la partenza.", "Once it starts."))),
        h("section", { "aria-label": say("Tavoli", "Tables") }, h("h3", {}, say("Tavoli", "Tables")),
          t.tables.length ? h("ul", { class: "tournament-tables" }, t.tables.map((table) => {
            // Who sits there with their chips (a multi-table tournament moves them about).
            const seated = (t.seating || []).find((s) => s.id === table);
            const sitting = seated?.players || [];
            return h("li", { "data-table": table },
              `${say("Tavolo", "Table")} ${table} `,
              // Levels by hands: each table pauses on its own when it gets to the break.
              seated?.on_break && !t.on_break ? h("span", { class: "note table-break" }, say("in pausa ", "on a break ")) : null,
              mine.includes(String(table))
                ? h("a", { href: `#table/${table}`, class: "own-table" }, say("il tuo", "yours"))
                : h("button", { type: "button", class: "watch", "data-table": table, "aria-label": `${say("Guarda il tavolo", "Watch table")} ${table}`,
                  onclick: () => watch(table) }, say("Guarda", "Watch")),
              sitting.length ? h("ul", { class: "table-players" }, sitting.map((p) => h("li", { "data-player": p.player },
                `${p.player} · ${p.stack}`))) : null);
          }))
            : h("p", { class: "note" }, "–"))),
    ];
  }, {
    async load(self) {
      try { await refresh(); } catch (error) {
        state.error = error;
        if (error.code === "no_such_tournament") return; // (or another's private one): nothing to follow
      }
      self.every(3, async () => {
        const before = JSON.stringify([state.t, state.own]);
        const wasWaiting = state.t?.you_are_registered && state.t.state === "registering";
        await refresh();
        if (wasWaiting && state.t.state === "running" && !state.going) return await goToTable();
        if (JSON.stringify([state.t, state.own]) !== before && !self.editing()) self.redraw();
      });
    },
    key: () => JSON.stringify(ownTables(state.t)), // the player's table came (its snapshot)
  });
}

/** A sit & go that started: the socket's welcome (opened again) names the player's table. */
async function toTheTable() {
  await reopenSocket();
  const table = Object.keys(app.tables)[0];
  if (table) openTable(table);
}

/**
 * A private sit & go while it registers, on its page: its invite to pass on, the places
 * left, and for its host the start with whoever registered and the cancel (every buy-in
 * refunded, asked twice).
 */
function privateSitAndGo(self, state, id, { refresh, goToTable }) {
  const own = state.own;
  const left = own.max_players - own.registered;
  const hostDoes = async (what) => {
    try {
      state.error = "";
      state.confirmCancel = false;
      await api("POST", `/api/private-sit-and-gos/${id}/${what}`);
      await refresh();
      if (what === "start" && state.t.you_are_registered && state.t.state === "running" && !state.going) return await goToTable();
    } catch (error) { state.error = error; }
    self.redraw();
  };
  const confirm = (yes) => { state.confirmCancel = yes; self.redraw(); };
  return h("section", { class: "sit-and-go-invite", "aria-label": say("Invito", "Invite") },
    h("h3", {}, say("Invita gli amici", "Invite your friends")),
    inviteField(self, state, sitAndGoAddress(own.invite_code)),
    h("p", { class: "note places-left" }, left === 1
      ? say("Manca un giocatore: si parte quando arriva.", "One player to come: it starts when they register.")
      : say(`Mancano ${left} giocatori: si parte quando i posti sono pieni.`, `${left} players to come: it starts when every place is taken.`),
    own.you_are_host ? say(" Oppure fallo iniziare tu con chi c'è.", " Or start it yourself with those registered.") : ""),
    own.you_are_host ? h("div", { class: "actions host-controls" },
      h("button", { type: "button", class: "primary start-now", onclick: () => hostDoes("start") }, say("Inizia ora", "Start now")),
      state.confirmCancel
        ? [h("span", { class: "confirm-cancel-note" }, say("Annullarlo? Ogni buy-in viene rimborsato.", "Cancel it? Every buy-in is refunded.")),
          h("button", { type: "button", class: "confirm-cancel", onclick: () => hostDoes("cancel") }, say("Sì, annulla", "Yes, cancel it")),
          h("button", { type: "button", class: "keep", onclick: () => confirm(false) }, say("No", "No"))]
        : h("button", { type: "button", class: "cancel-sit-and-go", onclick: () => confirm(true) }, say("Annulla il sit & go", "Cancel the sit & go")))
      : null);
}

/** A private sit & go that is over, on its page: its rematch (app.js's `rematchOffer`). */
function rematchOf(self, state) {
  const offer = rematchOffer(state.own, (error) => { state.error = error; self.redraw(); });
  if (!offer) return null;
  return h("section", { class: "rematch", "aria-label": say("Rivincita", "Rematch") }, offer,
    state.own.rematch_id ? null : h("span", { class: "note" }, say(" Lo stesso sit & go, con un nuovo invito per gli stessi amici.", " The same sit & go, with a new invite for the same friends.")));
}

/** The tournament's tables where the player sits (a watched one is not theirs). */
function ownTables(t) {
  return Object.keys(app.tables).filter((table) => (t?.tables || []).includes(Number(table))
    && app.tables[table].seats.some((s) => s.name === app.me));
}

// ------------------------------------------------------------- hand history

/** A share from 0 to 1 as a percentage ("–" where nothing was counted). */
const percent = (share) => (share === null || share === undefined ? "–" : `${Math.round(share * 100)}%`);
const decimal = (x) => (x === null || x === undefined ? "–" : x.toLocaleString(words.lang, { maximumFractionDigits: 1 }));
/** An amount the room sends as text ("-2352.94"), in the page's language ("-2.352,94"). */
const signed = (text) => {
  if (text === null || text === undefined) return "–";
  const shown = Number(text).toLocaleString(words.lang, { maximumFractionDigits: 2 });
  return Number(text) > 0 ? `+${shown}` : shown;
};

/** The figures of one game (a rule set's cash tables or its tournaments), from GET /api/stats. */
function gameStats(game) {
  const s = game.stats;
  const figure = (label, title, value) => h("div", { class: "figure" },
    h("dt", {}, h("abbr", { title }, label)), h("dd", {}, value));
  const figures = [
    figure("VPIP", say("Mani in cui hai messo fiches di tua volontà prima del flop (o del cambio)", "Hands in which you put chips in voluntarily before the flop (or the draw)"), percent(s.vpip)),
    figure("PFR", say("Mani in cui hai puntato o rilanciato prima del flop (o del cambio)", "Hands in which you bet or raised before the flop (or the draw)"), percent(s.pfr)),
    game.rules === "holdem" ? figure("3-bet", say("Rilanci davanti a un solo rilancio prima del flop", "Re-raises facing exactly one raise before the flop"), percent(s.three_bet)) : null,
    figure("AF", say("Puntate e rilanci dopo il flop (o il cambio) per ogni chiamata", "Bets and raises after the flop (or the draw) per call"), decimal(s.aggression_factor)),
    figure("WTSD", say("Showdown sulle mani in cui hai visto il flop (o il cambio)", "Showdowns out of the hands in which you saw the flop (or the draw)"), percent(s.went_to_showdown)),
    figure("W$SD", say("Showdown in cui hai vinto fiches", "Showdowns in which you won chips"), percent(s.won_at_showdown)),
    figure(say("Per 100 mani", "Per 100 hands"), say("Il tuo risultato ogni 100 mani, in fiches", "Your result per 100 hands, in chips"), signed(s.net_per_100)),
  ];
  const it = s.italian;
  if (it) figures.push(
    figure(say("Aperture", "Opens"), say("Mani che hai aperto dopo la distribuzione", "Hands you opened after the deal"), percent(it.open_rate)),
    figure(say("Al buio", "Blind opens"), say("Mani che hai aperto al buio, prima della distribuzione", "Hands you opened blind, before the deal"), percent(it.blind_open_rate)),
    figure(say("Carte cambiate", "Cards changed"), say("Carte cambiate per cambio (servito: nessuna)", "Cards changed per draw (standing pat: none)"), decimal(it.cards_per_draw)),
    ...(game.rules === "italian-32" ? [ // (only the 32-card room says parol)
      figure("Parol", say("Mani in cui hai detto parol", "Hands in which you said parol"), percent(it.parol_rate)),
      figure(say("Piatti del parol", "Parol pots"), say("Il tuo risultato nelle mani col piatto del parol", "Your result in the parol-pot hands"), signed(it.parol_pot_net))] : []));
  const kind = game.tournament ? say("tornei", "tournaments") : say("cash", "cash");
  return h("div", { class: "stats-game", "data-game": `${game.rules}-${game.tournament ? "tournament" : "cash"}` },
    h("h4", {}, `${words.t(game.rules)} · ${kind} — ${s.hands} ${s.hands === 1 ? say("mano", "hand") : say("mani", "hands")}`),
    h("dl", {}, figures));
}

/** The player's own statistics over their most recent finished hands. */
function statsOf(stats) {
  if (!stats || !stats.games.length) return null;
  return h("section", { class: "stats", "aria-label": say("Le tue statistiche", "Your statistics") },
    h("h3", {}, say("Le tue statistiche", "Your statistics")),
    h("p", { class: "note" }, stats.hands === 1
      ? say("Sulla tua ultima mano finita.", "Over your last finished hand.")
      : say(`Sulle tue ultime ${stats.hands} mani finite (fino a ${stats.limit}), per gioco; cash e tornei a parte.`,
        `Over your last ${stats.hands} finished hands (up to ${stats.limit}), per game; cash and tournaments apart.`)),
    stats.games.map(gameStats));
}

function handsPage() {
  const state = { hands: [], stats: null, error: "" };
  return page(() => [
    h("h2", {}, say("Le tue mani", "Your hands")),
    state.error ? problem(state.error) : null,
    statsOf(state.stats),
    // (Wider than a phone: it scrolls in its own box, the page does not.)
    state.hands.length ? h("div", { class: "hands-scroll" }, h("table", { class: "hands" },
      h("thead", {}, h("tr", {}, [say("Mano", "Hand"), words.t("rules"), say("Quando", "When"), say("Risultato", "Result"), ""].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, state.hands.map((hand) => h("tr", { "data-hand": hand.id },
        h("td", {}, `${hand.table_name || `${say("Tavolo", "Table")} ${hand.table_id}`} · #${hand.number}`,
          hand.tournament_id ? [" · ", h("a", { href: `#tournament/${hand.tournament_id}` }, "sit & go")] : null),
        h("td", {}, words.t(hand.rules)),
        h("td", {}, new Date(hand.started_at).toLocaleString(words.lang)),
        h("td", { class: hand.net > 0 ? "plus" : hand.net < 0 ? "minus" : "" }, hand.net === null ? say("in corso", "playing") : hand.net > 0 ? `+${hand.net}` : hand.net),
        h("td", {}, hand.state === "finished" ? [
          h("a", { href: `#hand/${hand.id}`, class: "replay" }, say("Rivedi", "Replay")), " · ",
          h("a", { href: `/api/hands/${hand.id}/phh`, download: `hand-${hand.id}.phh`, class: "download-phh" }, "PHH"), " · ",
          h("a", { href: `/api/hands/${hand.id}/text`, download: `hand-${hand.id}.txt`, class: "download-text" },
            hand.rules === "holdem" ? "PokerStars" : say("Testo", "Text"))] : null))))))
      : h("p", { class: "note" }, say("Ancora nessuna mano: gioca!", "No hand yet: go and play!")),
  ], {
    async load(self) {
      if (!(await self.account())) return;
      try {
        const [hands, stats] = await Promise.all([api("GET", "/api/hands?limit=200"), api("GET", "/api/stats")]);
        state.hands = hands.hands;
        state.stats = stats;
      } catch (error) { state.error = error; }
    },
  });
}

/**
 * The states of a replayed hand, one per step: what the player saw after each record.
 * Only arithmetic on the records the room sent (chips in, chips back, cards dealt and shown).
 */
function replaySteps(replay) {
  const n = replay.players.length;
  let s = { stacks: [...replay.stacks], bets: Array(n).fill(0), folded: Array(n).fill(false), hole: Array.from({ length: n }, () => []),
    board: [], pots: [], winners: [], dealt: false, drawn: false, blindRaises: 0, text: say("Inizio della mano", "The hand begins") };
  const steps = [structuredClone(s)];
  const name = (p) => (p === replay.you ? words.t("you") : replay.players[p]);
  const me = (p) => p === replay.you;
  for (const r of replay.records) {
    if (r.type === "burn" || r.type === "start") continue;
    s = structuredClone(s);
    s.winners = [];
    const p = r.position;
    const ctx = handContext(replay.rules, s);
    switch (r.type) {
      case "forced_bet": s.stacks[p] -= r.amount; s.bets[p] += r.amount; s.text = words.forcedBet(name(p), r.kind, r.amount, ctx); break;
      case "hole_cards":
        s.hole[p] = s.hole[p].concat(r.cards); s.dealt = true;
        s.text = p === replay.you ? `${say("Le tue carte", "Your cards")}: ${r.cards.map(cardText).join(" ")}` : `${say("Carte a", "Cards to")} ${name(p)}`;
        break;
      case "action": {
        s.stacks[p] -= r.added; s.bets[p] += r.added;
        if (r.kind === "fold") s.folded[p] = true;
        if (!s.dealt && (r.kind === "bet" || r.kind === "raise")) s.blindRaises += 1;
        const amount = r.kind === "call" ? r.added : r.kind === "all-in" ? s.bets[p] : r.to;
        s.text = words.verb(r.kind, name(p), me(p), amount, ctx);
        break;
      }
      case "collect": s.pots = r.pots; s.bets = s.bets.map(() => 0); s.text = say("Le puntate vanno nel piatto", "The bets go into the pot"); break;
      case "board": s.board = s.board.concat(r.cards); s.text = `${r.street}: ${s.board.map(cardText).join(" ")}`; break;
      case "discard": {
        s.drawn = true;
        const count = r.cards.length;
        s.hole[p] = p === replay.you ? s.hole[p].filter((c) => !r.cards.includes(c)) : s.hole[p].slice(count);
        s.text = words.drew(name(p), me(p), count);
        break;
      }
      case "show": s.hole[p] = [...r.cards]; s.text = words.shows(name(p), me(p), r.cards.map(cardText).join(" ")); break;
      case "muck": s.text = words.mucks(name(p), me(p)); break;
      case "uncalled":
        s.stacks[p] += r.amount; s.bets[p] = Math.max(0, s.bets[p] - r.amount);
        s.text = `${name(p)} ${words.conj(me(p), "riprende", "riprendi", "takes back", "take back")} ${r.amount}`;
        break;
      case "award":
        r.winners.forEach((w, i) => { s.stacks[w] += r.shares[i]; });
        s.winners = r.winners;
        s.pots = s.pots.map((pot, i) => (i === r.pot ? { ...pot, amount: 0 } : pot));
        s.text = words.won(r.winners.map((w) => ({ name: replay.players[w], me: me(w) })), r.amount);
        break;
      case "carry": s.text = words.carried(r.amount, r.parol); s.pots = []; break;
      case "rake": s.text = `Rake ${r.amount}`; break;
      case "reshuffle": s.text = words.t("reshuffled"); break;
      default: s.text = r.type;
    }
    steps.push(s);
  }
  return steps;
}

function replayPage(id) {
  const state = { replay: null, steps: [], at: 0, error: "" };
  let keys = null;
  return page((self) => {
    const replay = state.replay;
    if (!replay) return [h("h2", {}, say("Replay", "Replay")), problem(state.error)];
    state.steps = replaySteps(replay); // in the page's language
    const s = state.steps[state.at];
    const go = (at) => {
      state.at = Math.max(0, Math.min(state.steps.length - 1, at));
      self.redraw();
      document.querySelector(".replay-controls .next")?.focus();
      const log = document.querySelector(".replay-log");
      if (log) log.scrollTop = log.scrollHeight; // the latest step in sight
    };
    const seats = replay.players.map((player, p) => h("div", {
      class: ["replay-seat", p === replay.you && "me", s.folded[p] && "folded", s.winners.includes(p) && "winner"].filter(Boolean).join(" "),
      "data-position": p, "data-name": player },
      h("div", { class: "name" }, p === replay.you ? `${player} (${words.t("you")})` : player),
      h("div", { class: "stack" }, s.stacks[p]),
      h("div", { class: "cards" }, s.hole[p].map((c) => cardSvg(c))),
      h("div", { class: "bet" }, s.bets[p] ? `${say("puntata", "bet")} ${s.bets[p]}` : "")));
    const pot = s.pots.reduce((sum, x) => sum + x.amount, 0);
    return [
      h("h2", {}, `${say("Mano", "Hand")} #${replay.number} · ${replay.table_name || `${say("tavolo", "table")} ${replay.table_id}`} · ${words.t(replay.rules)}`),
      h("div", { class: "replay-table" }, seats,
        h("div", { class: "replay-centre" }, h("div", { class: "board cards" }, s.board.map((c) => cardSvg(c))),
          pot ? h("div", { class: "pot" }, `${words.t("pot")}: ${pot}`) : null)),
      h("p", { class: "replay-text", "aria-live": "polite" }, `${state.at}/${state.steps.length - 1} · ${s.text}`),
      h("div", { class: "actions replay-controls", role: "toolbar", "aria-label": say("Passi della mano", "Steps of the hand") },
        h("button", { type: "button", class: "first", "aria-label": say("Inizio", "Start"), onclick: () => go(0) }, "«"),
        h("button", { type: "button", class: "prev", "aria-label": say("Indietro", "Back"), onclick: () => go(state.at - 1) }, "◀"),
        h("button", { type: "button", class: "next primary", "aria-label": say("Avanti", "Next"), onclick: () => go(state.at + 1) }, "▶"),
        h("button", { type: "button", class: "last", "aria-label": say("Fine", "End"), onclick: () => go(state.steps.length - 1) }, "»")),
      h("ol", { class: "replay-log" }, state.steps.slice(1, state.at + 1).map((step) => h("li", {}, step.text))),
      h("p", {}, h("a", { href: "#hands" }, say("Tutte le mani", "All hands")), " · ",
        h("a", { href: `/api/hands/${id}/phh`, download: `hand-${id}.phh` }, "PHH"), " · ",
        h("a", { href: `/api/hands/${id}/text`, download: `hand-${id}.txt` }, replay.rules === "holdem" ? "PokerStars" : say("Testo", "Text"))),
    ];
  }, {
    async load(self) {
      if (!(await self.account())) return;
      try {
        state.replay = await api("GET", `/api/hands/${id}/replay`);
      } catch (error) { state.error = error; }
      if (keys) document.removeEventListener("keydown", keys);
      keys = (event) => {
        if (app.page !== self || event.target.tagName === "INPUT") return;
        if (event.key === "ArrowRight") document.querySelector(".replay-controls .next")?.click();
        if (event.key === "ArrowLeft") document.querySelector(".replay-controls .prev")?.click();
      };
      document.addEventListener("keydown", keys);
    },
  });
}
