// The room in the browser: the lobby over REST, the tables over one WebSocket (/ws).
import { cardSvg, cardText } from "./cards.js";
import { Words, chooseLanguage, handContext } from "./i18n.js";
import { pageFor } from "./pages.js";
import { offeredPreActions, preActionHolds, preActionMove } from "./preactions.js";

const RULES = ["italian-classic", "italian-32", "holdem"];
const main = document.getElementById("main");
let words = new Words(chooseLanguage());
let fourColours = localStorage.getItem("mazziere.fourColours") === "1";
let soundOn = localStorage.getItem("mazziere.sound") !== "0"; // a chime at a turn not in view
// Players whose chat this browser does not show, kept across visits (the room still sends
// their lines: muting is the reader's, not a sanction).
const muted = new Set(readList("mazziere.muted"));
// The tables where the player turned the automatic invito off (the room keeps it for the
// seat, but does not tell it back: a reload showed it on again, and posted for them).
const noAutoPost = new Set(readList("mazziere.noAutoPost"));

/** A list kept in the browser's storage (an unreadable one: empty). */
function readList(key) {
  try {
    const list = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(list) ? list.filter((item) => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** Mute or unmute a player's chat in this browser. */
function setMuted(name, on) {
  if (on) muted.add(name); else muted.delete(name);
  localStorage.setItem("mazziere.muted", JSON.stringify([...muted]));
  render();
}

const app = {
  me: null,          // the player's name at tables (from the WebSocket's welcome)
  account: null,
  csrf: "",
  wallet: null,      // the daily top-up: { available, amount } (GET /api/wallet)
  topUpSaid: "",     // the room's answer to the last claim of it, said in the header
  accountSaid: "",   // what became of the last change of password, said in the header
  sessionEnded: null, // the room's `session_ended`: this device was logged out (said until a log-in)
  changingPassword: false, // this browser changes it: its own socket's `session_ended` is expected
  lobby: [],         // the lobby's tables
  tournaments: [],   // the lobby's tournaments
  filter: null,      // a rule set, or null for all
  ws: null,
  wsReady: null,
  welcomed: null,    // the next welcome awaited, while none came: { promise, resolve }
  unreachable: false, // a request found no room: it is asked again until it answers
  refusedOnce: false, // the socket was refused for want of a session since the last welcome
  tables: {},        // table id -> its state
  current: null,     // the table on screen
  page: null,        // another page on screen (pages.js): private tables, hands, rules...
  leaving: new Set(), // tables left whose cash-out may come at the end of the hand playing
  tournamentTables: new Map(), // a tournament's table -> its id (null: not known yet): its players stay to the end
  tournamentNames: new Map(),  // a tournament's id -> its name (its tables are named by it)
  unsent: [],        // messages written between two sockets: sent once the next one is welcomed
  retries: 0,        // tries to open the socket again since the last welcome (each waits longer)
  heardAt: 0,        // when the socket last brought anything (performance.now())
  pingedAt: 0,       // when the page last asked a quiet socket whether the room is there
  lobbyProblem: null, // what went wrong in the lobby (a refused registration): its words, read when drawn
  lobbyNote: null,   // what the lobby did for the player ("play now" put them on a waiting list): its words, or none once over
  kept: {},          // a full table's id -> when the seat the room keeps for the player stops being kept
  keptSaid: {},      // a full table's id -> when the room last said it keeps that seat (performance.now())
  invitedWaits: {},  // a full private table's id -> { table, buyIn }: its waiting list joined from its invite
};

// ------------------------------------------------------------------ REST

async function api(method, path, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (method !== "GET") options.headers["X-CSRF-Token"] = app.csrf;
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let answer;
  try {
    answer = await fetch(path, options);
  } catch {
    roomUnreachable();
    throw new RoomError("unreachable", UNREACHABLE);
  }
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new RoomError(data.error?.code || "", data.error?.message || answer.statusText);
  return data;
}

const UNREACHABLE = "the room is not answering: try again in a moment";

/**
 * A request found no room (it restarts, the network is down): the line under the header
 * says the room is not heard until a request gets through again; the request's own refusal
 * (`unreachable`) goes to whoever asked, and one nobody catches (a click's) is not an error
 * of the page's: the line said it.
 */
function roomUnreachable() {
  sayOffline("offline");
  if (app.unreachable) return;
  app.unreachable = true;
  const probe = () => fetch("/api/session", { credentials: "same-origin" }).then(() => {
    app.unreachable = false;
    // The socket, if it is still being opened again, hides the line at its welcome.
    const socketLost = !app.ws && (needsSocket() || app.welcomed);
    if (!socketLost) document.getElementById("offline").hidden = true;
  }, () => setTimeout(probe, reconnectDelay()));
  setTimeout(probe, reconnectDelay());
}

window.addEventListener("unhandledrejection", (event) => {
  if (event.reason instanceof RoomError && event.reason.code === "unreachable") event.preventDefault();
});

/** A refusal of the room over REST: its code, and its message in the page's language (read
 * when shown, so that a page drawn again after the language switch says it in the other). */
class RoomError extends Error {
  constructor(code, text) {
    super();
    this.code = code;
    this.text = text;
  }

  get message() {
    return words.error(this.code, this.text);
  }
}

async function session() {
  const data = await api("GET", "/api/session");
  app.csrf = data.csrf_token;
  app.account = data.account;
  return data.account;
}

// The balance in the header is read again from the room after the player's chips moved (a
// buy-in, a top-up, a cash-out, a tournament's registration, refund or prize): the ledger is
// the truth, and the room stores a movement before it answers or tells the table.  A movement
// made while a reading is on its way is read once more after it.
let balanceReading = false;
let balanceAgain = false;
async function refreshBalance() {
  if (balanceReading) { balanceAgain = true; return; }
  balanceReading = true;
  try {
    do {
      balanceAgain = false;
      await session();
      showWho();
    } while (balanceAgain);
  } catch (error) {
    console.warn("room:", error.message);
  } finally {
    balanceReading = false;
  }
}

/** The player's account: a visitor becomes a guest.  False when the room makes none now
 * (too many new accounts from this address): said under the header, beside the log-in, and
 * whatever asked for it is not done. */
async function ensureAccount() {
  if (!(await session())) {
    try {
      const data = await api("POST", "/api/guest");
      app.account = data.account;
    } catch (error) {
      app.noGuest = error;
      showWho();
      // Said under the header, which a phone may have scrolled away from the button pressed.
      document.querySelector("#who .no-guest")?.scrollIntoView({ block: "nearest" });
      return false;
    }
    app.noGuest = null;
    await session();
    await readWallet();
  }
  showWho();
  return true;
}

/** Whether today's top-up is there to claim, as the room's wallet says (a guest's too). */
async function readWallet() {
  app.wallet = null;
  if (!app.account) return;
  try {
    const wallet = await api("GET", "/api/wallet");
    app.wallet = { available: wallet.top_up_available, amount: wallet.daily_top_up };
  } catch (error) {
    console.warn("room:", error.message);
  }
}

// Once per UTC day the room gives `daily_top_up` chips (POST /api/wallet/top-up): claimed
// from the header, where the balance is, and the room's answer said there.
let topUpSaidTimer = null;
async function claimTopUp() {
  const taken = () => {
    // The next one from midnight UTC, in the player's own time.
    const next = new Date();
    next.setUTCHours(24, 0, 0, 0);
    const when = next.toLocaleString(words.lang, { weekday: "long", hour: "2-digit", minute: "2-digit" });
    return words.pick(`La ricarica di oggi è già stata presa: la prossima da ${when}.`,
      `Today's top-up has been claimed: the next one from ${when}.`);
  };
  if (!app.wallet.available) app.topUpSaid = taken();
  else {
    try {
      const wallet = await api("POST", "/api/wallet/top-up");
      app.wallet = { available: wallet.top_up_available, amount: wallet.daily_top_up };
      app.topUpSaid = words.pick(`Ricarica presa: +${wallet.daily_top_up} fiches.`, `Top-up claimed: +${wallet.daily_top_up} chips.`);
      await refreshBalance();
    } catch (error) {
      if (error.code === "top_up_taken") app.wallet.available = false;
      app.topUpSaid = error.code === "top_up_taken" ? taken() : error.message;
    }
  }
  showWho();
  clearTimeout(topUpSaidTimer);
  topUpSaidTimer = setTimeout(() => { app.topUpSaid = ""; showWho(); }, 15000);
}

function showWho() {
  const who = document.getElementById("who");
  const account = app.account;
  const name = account ? account.name || app.me || `${words.t("guest")} ${account.id}` : "";
  const parts = [];
  if (account) parts.push(h("span", { class: "me" }, `${name} · ${words.t("balance")} ${account.balance}`));
  if (account && app.wallet) {
    parts.push(h("button", { type: "button", class: "top-up", onclick: claimTopUp,
      "aria-label": words.pick(`Ricarica del giorno: ${app.wallet.amount} fiches`, `Daily top-up: ${app.wallet.amount} chips`) },
    words.pick("Ricarica del giorno", "Daily top-up")));
    if (app.topUpSaid) parts.push(h("span", { class: "note top-up-said", role: "status" }, app.topUpSaid));
  }
  if (!account || account.guest) {
    // A guest signs up by giving this account (its chips) a name and a password.
    parts.push(h("button", { type: "button", class: "account", onclick: () => accountDialog(account ? "name" : "login"),
      title: account ? words.pick("Tieni questo account e le sue fiches con un nome e una password", "Keep this account and its chips under a name and a password") : "" },
    account ? words.pick("Registrati", "Sign up") : words.pick("Accedi o registrati", "Log in or sign up")));
  }
  if (account && !account.guest) {
    parts.push(h("button", { type: "button", class: "password", onclick: passwordDialog }, "Password"));
    parts.push(h("button", { type: "button", class: "logout", onclick: logout }, words.pick("Esci", "Log out")));
  }
  if (app.accountSaid) parts.push(h("span", { class: "note account-said", role: "status" }, app.accountSaid));
  if (app.sessionEnded) {
    parts.push(h("span", { class: "error session-ended", role: "alert" },
      words.error(app.sessionEnded.code, app.sessionEnded.message)));
  }
  if (app.noGuest && !account) parts.push(h("span", { class: "error no-guest", role: "alert" }, app.noGuest.message));
  if (account?.guest) {
    parts.push(h("button", { type: "button", class: "account", onclick: () => accountDialog("login") }, words.pick("Accedi", "Log in")));
  }
  who.replaceChildren(...parts);
}

// Log in, register, or (a guest) keep this account under a name and password.
function accountDialog(mode) {
  const name = h("input", { type: "text", name: "name", required: true, maxlength: 40, autocomplete: "username" });
  const password = h("input", { type: "password", name: "password", required: true, autocomplete: mode === "login" ? "current-password" : "new-password" });
  const problem = h("p", { class: "error", role: "alert" });
  const dialog = h("dialog", { class: "account-dialog" });
  const submit = async (path) => {
    try {
      await api("POST", path, { name: name.value, password: password.value });
      dialog.close();
      dialog.remove();
      app.sessionEnded = null;
      const refused = app.noGuest; // the page was left undone for want of an account
      app.noGuest = null;
      await session();
      await readWallet();
      if (path !== "/api/account/name") await reopenSocket(); // another account, other tables
      showWho();
      if (refused) await route();
      else render();
    } catch (error) {
      problem.textContent = error.message;
    }
  };
  const buttons = mode === "name"
    ? [h("button", { type: "button", class: "primary", onclick: () => submit("/api/account/name") }, words.pick("Salva", "Save"))]
    : [h("button", { type: "button", class: "primary", onclick: () => submit("/api/login") }, words.pick("Accedi", "Log in")),
       h("button", { type: "button", onclick: () => submit("/api/register") }, words.pick("Registrati", "Sign up"))];
  dialog.append(h("form", { method: "dialog", onsubmit: (e) => e.preventDefault() },
    mode === "name" ? h("p", {}, words.pick("Questo account e le sue fiches restano tuoi con un nome e una password.",
      "This account and its chips stay yours under a name and a password.")) : null,
    // A hand being played, its history and the others know the player by the name they sat
    // down with (docs/server.md, decision 3): said before it surprises them.
    mode === "name" && Object.keys(app.tables).some(sitsAt) ? h("p", { class: "note seated-as" }, words.pick(
      `Ai tavoli dove siedi ora resti ${app.me} finché non lasci il posto: il nuovo nome vale dal prossimo.`,
      `At the tables where you sit now you stay ${app.me} until you leave the seat: the new name is yours from the next one.`)) : null,
    h("label", {}, words.pick("Nome", "Name"), " ", name),
    h("label", {}, "Password", " ", password),
    problem,
    h("div", { class: "actions" }, buttons,
      h("button", { type: "button", onclick: () => { dialog.close(); dialog.remove(); } }, words.pick("Annulla", "Cancel")))));
  document.body.append(dialog);
  dialog.showModal();
}

// A new password, given the current one: the room ends every other session of the account
// and closes its sockets (this browser's too, which comes back with its new session).
function passwordDialog() {
  const field = (autocomplete) => h("input", { type: "password", required: true, minlength: 8, maxlength: 200, autocomplete });
  const current = field("current-password");
  const fresh = field("new-password");
  const again = field("new-password");
  const problem = h("p", { class: "error", role: "alert" });
  const dialog = h("dialog", { class: "password-dialog" });
  const close = () => { dialog.close(); dialog.remove(); };
  const submit = async () => {
    if (fresh.value !== again.value) {
      problem.textContent = words.pick("Le due nuove password non sono uguali.", "The two new passwords differ.");
      return;
    }
    app.changingPassword = true;
    try {
      await api("POST", "/api/account/password", { current_password: current.value, new_password: fresh.value });
    } catch (error) {
      app.changingPassword = false;
      problem.textContent = error.message;
      return;
    }
    close();
    setTimeout(() => { app.changingPassword = false; }, 10000); // (had this browser no socket)
    await session();
    app.accountSaid = words.pick("Password cambiata: le altre sessioni sono chiuse.", "Password changed: every other session is closed.");
    showWho();
    setTimeout(() => { app.accountSaid = ""; showWho(); }, 15000);
  };
  dialog.append(h("form", { method: "dialog", onsubmit: (e) => { e.preventDefault(); submit(); } },
    h("p", {}, words.pick("Cambiando la password, gli altri dispositivi dovranno accedere di nuovo.",
      "With a new password, your other devices must log in again.")),
    h("label", {}, words.pick("Password attuale", "Current password"), " ", current),
    h("label", {}, words.pick("Nuova password", "New password"), " ", fresh),
    h("label", {}, words.pick("Ripeti la nuova password", "The new password again"), " ", again),
    problem,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary" }, words.pick("Cambia", "Change")),
      h("button", { type: "button", onclick: close }, words.pick("Annulla", "Cancel")))));
  document.body.append(dialog);
  dialog.showModal();
}

// This device's session ended (the password was changed elsewhere): logged out, as by `logout`.
async function sessionEnded(message) {
  app.sessionEnded = message;
  await session();
  await readWallet();
  await reopenSocket();
  showWho();
}

async function logout() {
  await api("POST", "/api/logout");
  await session();
  await readWallet();
  await reopenSocket();
  showWho();
}

// The socket speaks for the session's account: after a log-in or log-out, a new one.
async function reopenSocket() {
  const old = app.ws;
  app.ws = null;
  app.wsReady = null;
  app.tables = {};
  app.leaving.clear();
  app.unsent = []; // another account's socket: nothing of the previous one is sent on it
  app.current = null;
  if (old) { old.onclose = null; old.close(); }
  if (app.account) {
    const welcome = await connect();
    for (const id of welcome.tables) tableState(id);
  }
  history.replaceState(null, "", "#");
  await route();
}

// ------------------------------------------------------------- the socket

function connect() {
  if (app.wsReady) return app.wsReady;
  // A socket lost before its welcome (a room starting again, one connection too many) is
  // opened again under the same promise: whoever waits for the welcome gets the next one.
  if (!app.welcomed) {
    let resolve;
    app.welcomed = { promise: new Promise((r) => { resolve = r; }), resolve: null };
    app.welcomed.resolve = resolve;
  }
  const welcomed = app.welcomed;
  app.wsReady = welcomed.promise;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  const ws = new WebSocket(url);
  app.ws = ws;
  const handle = (message) => {
    if (message.type === "error" && message.code === "session_ended") {
      // This browser's own change: its socket closes and opens again with the new session.
      if (app.changingPassword) app.changingPassword = false;
      else { ws.onclose = null; app.ws = null; app.wsReady = null; sessionEnded(message); }
      return;
    }
    if (message.type === "welcome") {
      app.me = message.player;
      showWho();
      for (const table of message.tables) {
        tableState(table);
        send({ type: "resume", table, last_seq: app.tables[table].seq });
      }
      app.retries = 0;
      app.refusedOnce = false;
      document.getElementById("offline").hidden = true;
      for (const text of app.unsent.splice(0)) ws.send(text);
      // A seat kept for the player while no socket was open (a restart of the room) was
      // told to nobody: the lobby has it.
      if (onAWaitingList()) redrawFreshLobby();
      if (app.welcomed === welcomed) app.welcomed = null;
      welcomed.resolve(message);
      return;
    }
    receive(message);
  };
  ws.onopen = () => { app.heardAt = performance.now(); };
  ws.onmessage = (event) => {
    app.heardAt = performance.now();
    for (const message of messagesOf(JSON.parse(event.data))) handle(message);
  };
  ws.onclose = (event) => closedByRoom(ws, event.code);
  return app.wsReady;
}

// The room's close codes that are not a dropped connection (server/ws.py).
const CLOSE_UNAUTHENTICATED = 4401;
const CLOSE_ORIGIN_REFUSED = 4403;
const CLOSE_TOO_MANY = 4429;

/**
 * The room closed this socket, or the connection dropped.  Most closes are tried again; two
 * are not a connection's fault and are said for what they are: a session the room no longer
 * knows (an expired or cleared cookie) ends here like a log-out elsewhere, instead of being
 * tried again forever; a socket over the account's limit of open connections says to close
 * another tab, and is tried again until one is closed.
 */
function closedByRoom(ws, code) {
  if (app.ws !== ws) return; // a socket this page already let go
  if (code === CLOSE_UNAUTHENTICATED && !app.refusedOnce) {
    // Once: a session read again over HTTP that the socket still refuses is not tried in a loop.
    app.refusedOnce = true;
    app.ws = null;
    app.wsReady = null;
    document.getElementById("offline").hidden = true;
    sessionEnded({ code: "session_ended", message: SESSION_ENDED });
    return;
  }
  if (code === CLOSE_ORIGIN_REFUSED || code === CLOSE_UNAUTHENTICATED) {
    // Trying again would be refused again: said, and left to the player (a reload).
    app.ws = null;
    app.wsReady = null;
    sayOffline("refused");
    return;
  }
  socketLost(code === CLOSE_TOO_MANY ? "tooManyConnections" : "offline");
}

const SESSION_ENDED = "your session ended (a new password, the account suspended, or it expired): log in again";

/** The line under the header while the room is not heard, and why (a key of the page's words). */
function sayOffline(why) {
  const line = document.getElementById("offline");
  line.firstElementChild.dataset.i18n = why;
  line.firstElementChild.textContent = words.t(why);
  line.hidden = false;
}

/** Whether the page needs the room's word: it follows tables, waits on a list, or has
 * messages to send. */
function needsSocket() {
  return Object.keys(app.tables).length > 0 || app.unsent.length > 0 || onAWaitingList();
}

/** The socket closed, or was found dead (checkSocket); `why` is said meanwhile. */
function socketLost(why = "offline") {
  app.ws = null;
  app.wsReady = null;
  // Back after a gap: the welcome's resume asks for what was missed (a player on a
  // waiting list is told over the socket when a seat is kept for them).  Until then the
  // page says so: the table on screen is as it was when the room was last heard, and
  // the player should not take it for the room's.
  if (needsSocket() || app.welcomed) {
    sayOffline(why);
    setTimeout(() => connect(), reconnectDelay());
  }
}

const QUIET_MS = 15_000;
const ANSWER_MS = 5_000;

/**
 * A connection that died without a word (a phone that changed networks, a Wi-Fi gone) leaves
 * the browser's socket open for minutes, the table frozen on screen while the player's clock
 * runs at the room.  A socket that has heard nothing for QUIET_MS (a table in play speaks
 * every few seconds) asks the room whether it is there; with no word back in ANSWER_MS it is
 * taken for lost: said, and opened again.
 */
function checkSocket() {
  const ws = app.ws;
  // (a page in the lobby alone reads it over HTTP: its socket is not asked)
  if (!ws || ws.readyState !== WebSocket.OPEN || !needsSocket()) return;
  const now = performance.now();
  if (app.pingedAt > app.heardAt) {
    if (now - app.pingedAt < ANSWER_MS) return;
    ws.onclose = null;
    ws.onmessage = null;
    ws.close();
    socketLost();
  } else if (now - app.heardAt > QUIET_MS) {
    app.pingedAt = now;
    ws.send(JSON.stringify({ v: 1, type: "ping" }));
  }
}

/**
 * How long to wait before the next try: one second, then longer, up to eight, each with a
 * random part: a room started again is not met by every page of its players in the same
 * instant, nor tried every second for as long as it is down.
 */
function reconnectDelay() {
  const delay = 1000 * 2 ** Math.min(app.retries, 3);
  app.retries += 1;
  return delay * (0.75 + Math.random() / 2);
}

// Several messages queued at once arrive as one batch, in order: each is handled as if alone.
function messagesOf(frame) {
  return frame.type === "batch" ? frame.messages : [frame];
}

function send(message) {
  const text = JSON.stringify({ v: 1, ...message });
  if (app.ws && app.ws.readyState === WebSocket.OPEN) { app.ws.send(text); return; }
  // Between two sockets (a connection dropped, the next one not yet open) a message waits
  // for the next welcome: dropped, a "leave" showed the lobby to a player still seated.  An
  // action whose turn is over by then is refused by the room as stale, and says so.
  app.unsent.push(text);
  connect();
}

// ------------------------------------------------------------ table state

function tableState(id) {
  if (!app.tables[id]) {
    const row = app.lobby.find((t) => String(t.id) === id);
    app.tables[id] = {
      id, rules: row?.rules ?? null, name: row?.name ?? null, seatCount: row?.seats ?? 6,
      maxBuyIn: row?.max_buy_in ?? 0, autoPost: !noAutoPost.has(id), offer: null,
      stakes: row?.stakes ?? null, // the stakes played now, and the host's (private tables)
      nextStakes: null, paused: false, // change from the next hand, and the host's pause
      seq: 0, seats: [], carried: 0, parolPot: false, hand: null, turn: null, turnAt: 0, log: [],
      marked: new Set(), confirmingFold: false, error: null, // the room's last refusal here
      held: null, // the room's held message while the table waits for its database
      gone: new Set(), // the seated players whose connections are all closed (the room's word)
      pre: null, // a pre-action chosen before the turn: { kind, amount }
      hintsOffered: false, hintsOn: false, hint: null, // hints for learners (the room decides)
      hintAsking: false, hintAgain: false, // a question about them on its way, and one more
    };
    if (!row) describeTable(app.tables[id]);
  }
  return app.tables[id];
}

/**
 * A table out of the lobby's list: a private table is named, and its stakes said, as the
 * room's list of the player's private tables has them.  A tournament's table keeps its
 * number and has the tournament's seats; it is known as one however it was opened (at the
 * start, after a reload, by a move, by its address): else the running tournaments are asked
 * (the lobby's, and the player's private sit & gos).
 * The table's own events, when they come, say the stakes.
 */
async function describeTable(table) {
  if (table.described) return;
  await alone(table, "describing", async () => {
    const tournament = app.tournamentTables.get(table.id);
    if (tournament === undefined) {
      // None for a visitor (not asked: the room refuses it, and the browser logs each refusal).
      const mine = !app.account ? [] : await api("GET", "/api/private-tables").then((a) => a.tables, () => []);
      const row = mine.find((t) => String(t.id) === table.id);
      if (row) {
        table.name = row.name;
        table.seatCount = row.seats;
        table.maxBuyIn = table.maxBuyIn || row.max_buy_in;
        table.stakes = table.stakes ?? row.stakes;
        table.described = true;
        render();
        return;
      }
    }
    const running = tournament ? [{ id: tournament }] : [
      ...(await api("GET", "/api/tournaments?state=running")).tournaments,
      ...(await ownPrivateSitAndGos()).filter((t) => t.state === "running"), // not in the lobby's list
    ];
    for (const t of running) {
      const details = await api("GET", `/api/tournaments/${t.id}`);
      noteTournament(details);
      if (app.tournamentTables.get(table.id) === details.id) { table.seatCount = details.seats; table.described = true; break; }
    }
    // A table with levels is a tournament's, listed once its seats are stored: asked again.
    table.asked = (table.asked ?? 0) + 1;
    if (!table.described && table.level && table.asked < 10) setTimeout(() => describeTable(table), 1000);
    render();
  });
}

/** The private sit & gos the player hosts or registered for (none for a visitor). */
async function ownPrivateSitAndGos() {
  if (!app.account) return [];
  return api("GET", "/api/private-sit-and-gos").then((a) => a.sit_and_gos, (error) => { console.warn("room:", error.message); return []; });
}

/** `work` for a table, once at a time (`flag` marks it under way); the room's refusal logged. */
async function alone(table, flag, work) {
  if (table[flag]) return;
  table[flag] = true;
  try {
    await work();
  } catch (error) {
    console.warn("room:", error.message);
  } finally {
    table[flag] = false;
  }
}

/** A tournament's tables (its `GET /api/tournaments/<id>` lists them) known as its own. */
function noteTournament(details) {
  app.tournamentNames.set(details.id, details.name);
  for (const id of details.tables.map(String)) {
    app.tournamentTables.set(id, details.id);
    if (app.tables[id]) { app.tables[id].seatCount = details.seats; app.tables[id].described = true; }
  }
}

/**
 * The player's end in a tournament, told at its table (and in its log): their place and
 * prize once out, or the tournament over.  The room says it in the tournament's standings
 * (`GET /api/tournaments/<id>`), stored a moment after the hand that decided it: asked again
 * a few times until they say it.
 */
async function tellFinish(table) {
  if (!app.tournamentTables.has(table.id) || table.over) return;
  await alone(table, "finishing", async () => {
    for (let tries = 0; tries < 8 && !table.over; tries++) {
      if (tries) await new Promise((r) => setTimeout(r, 1000));
      if (!app.tournamentTables.get(table.id)) { table.described = false; await describeTable(table); }
      const tournament = app.tournamentTables.get(table.id);
      if (!tournament) continue;
      const details = await api("GET", `/api/tournaments/${tournament}`);
      const mine = details.standings.find((s) => s.player === app.me);
      if (!mine) { // a spectator: told the tournament's end, once it is over
        const winner = details.standings.find((s) => s.place === 1);
        if (details.state !== "finished" || !winner) continue;
        table.over = { tournament, winner: winner.player, prize: winner.prize, over: true };
        say(table, words.finishWatched(winner.player, winner.prize), "over");
        render();
        if (details.private) offerRematch(table);
        continue;
      }
      if (mine.place === null) continue;
      table.over = { tournament, place: mine.place, prize: mine.prize, over: details.state === "finished" };
      say(table, words.finish(mine.place, mine.prize, table.over.over), "over");
      refreshBalance();
      render();
      if (details.private) offerRematch(table);
    }
  });
}

/**
 * A private sit & go over for the player, at its table: its host may make the rematch once
 * it has ended, and its players are offered the rematch once made (asked every 3 s while
 * the table is open, for ten minutes at most).
 */
async function offerRematch(table) {
  const id = table.over.tournament;
  for (let tries = 0; tries < 200 && app.tables[table.id] === table; tries++) {
    if (tries) await new Promise((r) => setTimeout(r, 3000));
    let own;
    try { own = await api("GET", `/api/private-sit-and-gos/${id}`); } catch (error) { console.warn("room:", error.message); return; }
    const changed = JSON.stringify(own) !== JSON.stringify(table.over.own);
    table.over.own = own;
    if (changed) render();
    if (own.rematch_id || (own.you_are_host && own.state === "finished")) return;
  }
}

/** The rematch in the notice of a private sit & go's end, once the room said what it is. */
function rematchAtTable(table) {
  const own = table.over.own;
  return own ? rematchOffer(own, (error) => { table.error = { code: error.code, message: error.text }; render(); }) : null;
}

/**
 * The rematch of a private sit & go that is over (`own`: as its host or a player has it):
 * the host's button that makes it, then the way to it (the host's to its page, the players'
 * to its invite); null while there is none to offer.  `failed` is told the room's refusal.
 */
function rematchOffer(own, failed) {
  if (own.rematch_id) {
    return h("a", { class: "to-rematch", href: own.you_are_host ? `#tournament/${own.rematch_id}` : `#sitgo/${own.rematch_invite_code}` },
      own.you_are_host ? words.pick("Vai alla rivincita", "Go to the rematch")
        : words.pick(`${own.host} propone la rivincita: iscriviti`, `${own.host} offers a rematch: register`));
  }
  if (!own.you_are_host || !["finished", "cancelled"].includes(own.state)) return null;
  const make = async () => {
    try {
      const again = await api("POST", `/api/private-sit-and-gos/${own.id}/rematch`);
      location.hash = `#tournament/${again.id}`;
    } catch (error) { failed(error); }
  };
  return h("button", { type: "button", class: "primary make-rematch", onclick: make }, words.pick("Rivincita", "Rematch"));
}

/**
 * A table closed while watched.  A cash table's (closed by its host, or withdrawn by the
 * room, with nobody seated): said, the lobby being the table's own button below.  A
 * tournament's (its players moved on, or the tournament over): said with the ways on, the
 * tournament's tables still playing, to watch instead, and its page.  A player out of the
 * tournament has their own end said instead (finishNotice).
 */
function closedNotice(table) {
  const closed = table.closed;
  if (!closed || table.over) return null;
  if (closed.tournament == null) {
    return h("div", { class: "table-closed", role: "status" },
      h("p", {}, words.pick("Il tavolo è chiuso: qui non si gioca più.", "The table is closed: no more hands here.")));
  }
  const away = (then) => () => {
    send({ type: "unwatch", table: table.id });
    app.current = null;
    delete app.tables[table.id];
    then();
  };
  return h("div", { class: "table-closed", role: "status" },
    h("p", {}, closed.over ? words.pick("Il torneo è finito.", "The tournament is over.")
      : words.pick("Questo tavolo è stato chiuso: il torneo continua.", "This table was broken up: the tournament goes on.")),
    closed.tables.flatMap((id) => [h("button", { type: "button", class: "watch", "data-table": id, onclick: away(() => watch(id)) },
      words.pick(`Guarda il tavolo ${id}`, `Watch table ${id}`)), " "]),
    h("button", { type: "button", class: "primary to-tournament", onclick: away(() => { location.hash = `#tournament/${closed.tournament}`; }) },
      words.pick("Vai al torneo", "Go to the tournament")));
}

/** The notice of the player's end in a tournament, with the way back. */
function finishNotice(table) {
  const over = table.over;
  if (!over) return null;
  return h("div", { class: "tournament-over", role: "status" },
    h("p", {}, over.winner ? words.finishWatched(over.winner, over.prize) : words.finish(over.place, over.prize, over.over)),
    h("button", { type: "button", class: "primary to-tournament", onclick: () => { location.hash = `#tournament/${over.tournament}`; } },
      words.pick("Vai al torneo", "Go to the tournament")),
    " ", h("button", { type: "button", class: "to-lobby", onclick: () => leave(table) }, words.pick("Torna alla sala", "Back to the lobby")),
    " ", rematchAtTable(table));
}

function newHand(table, message) {
  table.rules = message.rules;
  const n = message.names.length;
  table.hand = {
    number: message.hand, names: message.names, seats: message.seats, button: message.button,
    stacks: Array(n).fill(0), bets: Array(n).fill(0), folded: Array(n).fill(false),
    hole: Array.from({ length: n }, () => []), shown: {}, board: [], pots: [], collected: 0,
    // The smallest pair that opens, as the room says it (null: none required).
    dealt: false, drawn: false, blindRaises: 0, opening: message.opening ?? null, winners: new Set(), names_of: {},
    best: {}, awards: [], ended: false,
  };
  table.turn = null;
  table.pre = null;
  table.confirmingFold = false;
  table.marked.clear();
}

function receive(message) {
  const id = message.table;
  if (message.type === "error" && message.of === "leave" && app.leaving.has(id)) {
    // Not left after all (a tournament's table keeps its players to the end): the table is
    // followed again, in the background, for the player to come back to.
    app.leaving.delete(id);
    if (!app.tournamentTables.has(id)) app.tournamentTables.set(id, null);
    send({ type: "resume", table: id, last_seq: 0 });
    return;
  }
  if (message.type === "error") {
    // Kept as the room sent it: said in the page's language when drawn (a switch too).
    if (id && app.tables[id]) { app.tables[id].error = message; render(); }
    else console.warn("room:", message.message);
    return;
  }
  if (message.type === "ack" && MOVES_CHIPS.has(message.of)) refreshBalance();
  if (message.type === "moved") { moved(message); return; }
  if (message.type === "seat_kept") { seatKept(message.table, message.seconds); return; }
  if (message.type === "held") {
    // The room cannot store the table's last change (its database refuses writes): the
    // table waits, its clock stopped, until it can; nothing of that change is shown.
    const held = app.tables[id];
    if (!held) return;
    const now = performance.now();
    if (message.held && !held.held) held.heldAt = now;
    if (!message.held && held.held) held.turnAt += now - held.heldAt; // the clock stood still
    held.held = message.held ? message : null;
    render();
    return;
  }
  if (message.type === "presence") {
    // A seated player's connection closed, the last of theirs, or one opened again: said at
    // their seat (the others may wait on a player who cannot answer).
    const at = app.tables[id];
    if (!at) return;
    if (message.connected) at.gone.delete(message.name);
    else at.gone.add(message.name);
    render();
    return;
  }
  if (!id || message.type === "ack" || message.type === "pong") return;
  if (app.leaving.has(id)) {
    // A table left: its events are no longer drawn; once the seat is gone, the chips are back.
    if (message.type === "seats" && !message.seats.some((s) => s.name === app.me)) {
      app.leaving.delete(id);
      refreshBalance();
      send({ type: "unwatch", table: id });
    }
    return;
  }
  const table = tableState(id);
  if (message.type === "snapshot") {
    applySnapshot(table, message);
    if (!app.lobby.some((t) => String(t.id) === id)) describeTable(table); // (once known, nothing asked)
    // Sequence numbers start at 1, and the room sends a table where nothing happened yet at
    // seq 1 too: that table's first event, 1, is still to come (after a snapshot at seq 1 of
    // a table that had one event, no event 1 comes again).
    table.seq = Math.max(table.seq, message.seq === 1 ? 0 : message.seq);
    render();
    return;
  }
  if (message.seq !== undefined) {
    if (message.seq <= table.seq) return; // already seen (a resume sends it again)
    table.seq = message.seq;
  }
  handle(table, message);
  render();
}

/**
 * A tournament moved the player to another of its tables (balancing, a table broken, the
 * final table): the connection follows the new table, whose snapshot comes next.  The page
 * goes with them if it showed the old table, and the running log goes on at the new one.
 */
function moved(message) {
  const from = app.tables[message.from_table];
  delete app.tables[message.from_table];
  app.tournamentTables.set(message.table, app.tournamentTables.get(message.from_table) ?? null);
  const table = tableState(message.table);
  if (from) {
    table.rules = table.rules ?? from.rules;
    table.seatCount = from.seatCount;
    table.log = [...from.log]; // (what is still said of the old table's last hand stays there)
    table.autoPost = from.autoPost;
  }
  const where = words.pick(`tavolo ${message.table}, posto ${message.seat}`, `table ${message.table}, seat ${message.seat}`);
  say(table, {
    balance: words.pick(`Tavoli bilanciati: ora sei al ${where}`, `Tables balanced: you now sit at ${where}`),
    break: words.pick(`Il tuo tavolo è stato chiuso: ora sei al ${where}`, `Your table was broken up: you now sit at ${where}`),
    final_table: words.pick(`Tavolo finale: sei al ${where}`, `The final table: you sit at ${where}`),
  }[message.reason] ?? words.pick(`Ora sei al ${where}`, `You now sit at ${where}`), "moved");
  if (app.current === message.from_table) openTable(message.table);
  else render();
}

// The messages whose acknowledgement means that the player's wallet moved.
const MOVES_CHIPS = new Set(["sit", "top_up", "leave"]);

/** Who sits at a table, as a key: a change of it (someone came, left or was eliminated) may
 * have moved the player's chips (a cash-out, a tournament's prizes paid at its end). */
function sittersKey(seats) {
  return seats.map((s) => s.name).sort().join("\n");
}

function handle(table, message) {
  switch (message.type) {
    case "seats": {
      const before = sittersKey(table.seats);
      const wasThere = table.seats.some((s) => s.name === app.me);
      table.seats = message.seats;
      // A player who left is no longer said gone: back and seated again, they sat with a
      // connection open (and no presence says so: their connections did not change).
      for (const name of table.gone) if (!table.seats.some((s) => s.name === name)) table.gone.delete(name);
      if (wasThere && !table.seats.some((s) => s.name === app.me)) tellFinish(table); // out of a tournament?
      if (sittersKey(table.seats) !== before && (wasThere || table.seats.some((s) => s.name === app.me))) refreshBalance();
      table.carried = message.carried_pot;
      table.parolPot = Boolean(message.parol_pot);
      askHint(table); // who sits changed: are hints still offered?
      break;
    }
    case "hand_started":
      newHand(table, message);
      say(table, words.t("handStarts", message.hand), "head");
      break;
    case "record":
      if (table.hand && message.hand === table.hand.number) record(table, message.record);
      break;
    case "turn":
      table.turn = message;
      table.turnAt = performance.now();
      table.error = null;
      table.confirmingFold = false;
      if (message.name !== app.me) table.marked.clear();
      else if (message.legal && table.pre) playPreAction(table, message);
      if (message.name === app.me && message.legal && table.hintsOn) askHint(table);
      if (myLegal(table) && !inView(table)) chime();
      break;
    case "hand_ended":
      endHand(table, message);
      break;
    case "offer":
      if (message.name !== app.me) break;
      offered(table, message);
      break;
    case "chat":
      say(table, `${message.name}: ${message.text}`, "chat", message.name);
      break;
    case "table_state": // the host paused or resumed the table, or changed its stakes
      table.paused = message.paused;
      table.stakes = message.stakes;
      table.nextStakes = message.next_stakes ?? null;
      break;
    case "level": // a tournament's table: its level, the next stakes, what is left
      setLevel(table, message.level);
      break;
    case "closed": // a cash table closed, a tournament's broken up, or the tournament over: nothing more here
      table.closed = { tournament: message.tournament, over: message.over, tables: message.tables };
      break;
  }
}

/** The room asks the player (to post the invito, to pay back into a parol pot): the invito
 * is posted at once where the player chose so, else the question stays for the seconds the
 * room gives it (then the room takes it as a no). */
function offered(table, offer) {
  if (offer.kind === "invito" && table.autoPost) {
    send({ type: "answer", table: table.id, accept: true });
    return;
  }
  table.offer = { ...offer, until: performance.now() + 1000 * offer.seconds };
  if (!inView(table)) chime();
}

/** A tournament's level as the room told it, with when (its seconds are counted down here). */
function setLevel(table, level) {
  table.level = level ? { ...level, at: Date.now() } : null;
  if (level && !level.on_break) table.stakes = level.stakes;
  // Only a tournament's table has levels: one not known as such (asked about before the
  // room listed it: a tournament's tables are listed once their seats are stored) is
  // asked about again, so that it is named by its tournament and keeps its players.
  if (level && !app.tournamentTables.get(table.id)) {
    table.described = false;
    describeTable(table);
  }
}

function context(table) {
  return handContext(table.rules, table.hand);
}

function who(table, position) {
  const name = table.hand.names[position];
  return name === app.me ? words.t("you") : name;
}

function mine(table, position) {
  return table.hand.names[position] === app.me;
}

/** Winners by position as the words name them (Words.won): their names, and which is me. */
function winnersOf(table, positions) {
  return positions.map((w) => ({ name: table.hand.names[w], me: mine(table, w) }));
}

function record(table, r) {
  const hand = table.hand;
  const p = r.position;
  switch (r.type) {
    case "start":
      hand.stacks = [...r.setup.stacks];
      if (r.setup.carried_pot) say(table, `${words.t(r.setup.parol_pot ? "carried" : "carriedDead")}: ${r.setup.carried_pot}`);
      break;
    case "forced_bet":
      hand.stacks[p] -= r.amount;
      hand.bets[p] += r.amount;
      say(table, words.forcedBet(who(table, p), r.kind, r.amount, context(table)));
      break;
    case "hole_cards":
      hand.hole[p] = hand.hole[p].concat(r.cards);
      if (!hand.dealt) hand.dealt = true;
      if (hand.names[p] === app.me && r.cards.every((c) => c !== "??"))
        say(table, `${words.pick("Le tue carte", "Your cards")}: ${r.cards.map(cardText).join(" ")}`);
      break;
    case "action": {
      const ctx = context(table);
      hand.stacks[p] -= r.added;
      hand.bets[p] += r.added;
      if (r.kind === "fold") hand.folded[p] = true;
      if (!hand.dealt && (r.kind === "bet" || r.kind === "raise")) hand.blindRaises += 1;
      const amount = r.kind === "call" ? r.added : r.kind === "all-in" ? hand.bets[p] : r.to;
      say(table, words.verb(r.kind, who(table, p), hand.names[p] === app.me, amount, ctx));
      if (table.pre && (mine(table, p) || !preActionHolds(table.pre, toCall(table)))) table.pre = null;
      break;
    }
    case "collect":
      hand.pots = r.pots;
      hand.bets = hand.bets.map(() => 0);
      table.pre = null; // the betting round is over: its pre-actions with it
      break;
    case "board":
      table.pre = null;
      hand.board.push(...r.cards);
      say(table, `${r.street}: ${hand.board.map(cardText).join(" ")}`);
      break;
    case "discard": {
      hand.drawn = true;
      if (mine(table, p)) hand.hole[p] = hand.hole[p].filter((c) => !r.cards.includes(c));
      else hand.hole[p] = hand.hole[p].slice(r.cards.length);
      say(table, words.drew(who(table, p), mine(table, p), r.cards.length));
      break;
    }
    case "show":
      hand.hole[p] = [...r.cards];
      hand.shown[p] = r.cards;
      say(table, words.shows(who(table, p), mine(table, p), r.cards.map(cardText).join(" ")));
      break;
    case "muck":
      say(table, words.mucks(who(table, p), mine(table, p)));
      break;
    case "uncalled":
      hand.stacks[p] += r.amount;
      hand.bets[p] = Math.max(0, hand.bets[p] - r.amount);
      hand.pots = hand.pots.map((pot, i) => (i === hand.pots.length - 1 ? { ...pot, amount: pot.amount - r.amount } : pot));
      break;
    case "award":
      r.winners.forEach((w, i) => { hand.stacks[w] += r.shares[i]; hand.winners.add(w); });
      hand.awards.push(r);
      say(table, words.wonShares(winnersOf(table, r.winners), r.amount, r.shares)
        + (hand.pots.length > 1 ? ` (${r.pot === 0 ? words.t("pot") : `${words.t("sidePot")} ${r.pot}`})` : ""), "win");
      break;
    case "carry":
      say(table, words.carried(r.amount, r.parol));
      break;
    case "reshuffle":
      say(table, words.t("reshuffled"));
      break;
    case "rake":
      say(table, `${words.pick("Rake", "Rake")} ${r.amount}`);
      break;
    case "burn":
      break;
    default:
      say(table, `${r.type}${r.amount !== undefined ? " " + r.amount : ""}`);
  }
}

async function endHand(table, message) {
  const hand = table.hand;
  if (!hand) return;
  hand.ended = true;
  table.turn = null;
  hand.stacks = message.result.stacks;
  const me = hand.names.indexOf(app.me);
  // Out of a tournament, or its last hand played: the place and prize are told (to a
  // spectator, who won).
  const last = hand.stacks.filter((s) => s > 0).length === 1;
  if ((me >= 0 && (hand.stacks[me] === 0 || last)) || (me < 0 && last)) tellFinish(table);
  hand.resultPots = message.result.pots;
  if (hand.resultPots.length > 1) {
    // Side pots: each one said with who won it (one award may pay several pots at once).
    hand.resultPots.forEach((pot, i) => {
      if (i > 0) say(table, `${words.t("sidePot")} ${i}: ${pot.amount} → ${words.names(winnersOf(table, pot.winners))}`, "win");
    });
  }
  const shown = message.result.shown || {};
  for (const [position, cards] of Object.entries(shown)) hand.hole[position] = cards;
  // The winning hands named, all at once: the room's evaluator names them (the page never
  // ranks hands).  Names are taken from this hand: the next one may be dealt meanwhile.
  const winners = [...new Set(message.result.pots.flatMap((pot) => pot.winners))].filter((w) => shown[w]);
  const nameOf = (w) => (hand.names[w] === app.me ? words.t("you") : hand.names[w]);
  await Promise.all(winners.map(async (winner) => {
    hand.names_of[winner] = "…";
    const query = new URLSearchParams({
      rules: table.rules, cards: shown[winner].join(" "), board: hand.board.join(" "),
      players: String(hand.names.length), lang: words.lang,
    });
    try {
      const named = await api("GET", `/api/describe?${query}`);
      hand.names_of[winner] = named.name;
      hand.best[winner] = named.cards; // the five cards that make it, highlighted
      if (table.hand === hand) say(table, `${nameOf(winner)}: ${named.name}`, "win");
    } catch (error) {
      hand.names_of[winner] = "";
    }
    if (table.hand === hand) render();
  }));
}

function applySnapshot(table, message) {
  const state = message.state;
  table.rules = state.rules;
  table.seats = state.seats;
  table.gone = new Set(state.seats.filter((s) => s.connected === false).map((s) => s.name));
  table.carried = state.carried_pot || 0;
  table.parolPot = Boolean(state.parol_pot);
  table.paused = Boolean(message.paused);
  table.nextStakes = message.next_stakes ?? null;
  setLevel(table, message.level ?? null);
  const game = state.game;
  if (game && !game.result) {
    const positions = state.positions;
    const names = positions.map((seat) => state.seats.find((s) => s.seat === seat)?.name ?? "?");
    if (!table.hand || table.hand.number !== state.hand) {
      newHand(table, { rules: state.rules, hand: state.hand, names, seats: positions, button: state.button });
    }
    const hand = table.hand;
    hand.stacks = [...game.stacks];
    hand.bets = [...game.bets];
    hand.folded = [...game.folded];
    hand.hole = game.hole.map((cards) => [...(cards || [])]);
    hand.board = [...(game.board || [])];
    hand.pots = game.pots || [];
    hand.dealt = hand.hole.some((cards) => cards.length > 0);
    hand.drawn = (game.betting_round || 1) > 1 || (game.drawn || []).some((d) => d !== null);
    hand.blindRaises = (game.blind_raisers || []).length;
    hand.opening = game.opening ?? null;
  }
  if (message.turn) { table.turn = message.turn; table.turnAt = performance.now(); }
  else table.turn = null;
  table.offer = null; // (a question the room still waits for is in the snapshot)
  const offer = (state.offers || []).find((o) => o.name === app.me);
  if (offer) offered(table, offer);
}

function say(table, text, kind = "", who = null) {
  table.log.push({ text, kind, who }); // who: a chat line's player (it may be muted)
  if (table.log.length > 300) table.log.shift();
}

// ------------------------------------------------------------------ views

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let renderedLang = null;

// A click is a press and a release on the same element, and a redraw replaces every element
// of the page: a table's events (a bot acts every second, sometimes faster) arriving between
// the two would lose the click on a button that looked pressed.  While a pointer is down the
// page is not redrawn; the redraw it missed comes once the click has been handled.
const pointer = { down: false, missed: false };
let redrawing = false; // a field taken out of the page by a redraw is not "changed" by the player
document.addEventListener("pointerdown", () => { pointer.down = true; }, true);
for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, released, true);
window.addEventListener("blur", released); // a release outside the window is never seen

function released() {
  pointer.down = false;
  if (pointer.missed) { pointer.missed = false; setTimeout(render, 0); } // after the click
}

function render() {
  if (pointer.down) { pointer.missed = true; return; }
  const typing = fieldTypedIn();
  redrawing = true;
  try {
    document.documentElement.lang = words.lang;
    document.getElementById("lang").textContent = words.it ? "English" : "Italiano";
    for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = words.t(node.dataset.i18n);
    if (renderedLang !== words.lang) { renderedLang = words.lang; showWho(); }
    if (app.current) renderTable(app.tables[app.current]);
    else if (app.page) app.page.update(); // a page draws itself again only when it changed
    else renderLobby();
    renderTurns();
  } finally {
    redrawing = false;
  }
  typeOn(typing);
}

/** Whether the room waits for the player at ``table``: a decision, or an answer to an offer. */
function awaits(table) {
  return !app.leaving.has(table.id) && Boolean(myLegal(table) || offerOpen(table));
}

/** Whether the player sees ``table``: on screen, in a tab in front. */
function inView(table) {
  return app.current === table.id && !document.hidden;
}

/**
 * Where the player is awaited, wherever the page is (the lobby, another table, the rules): a
 * line under the header with a link to each table waiting for them but the one on screen,
 * its clock running, and the tab's title saying it to a player in another tab or window.
 * Without it a player who looked at the lobby while seated lost their turns to the clock.
 */
function renderTurns() {
  const waiting = Object.values(app.tables).filter(awaits);
  const current = app.current ? app.tables[app.current] : null;
  document.title = waiting.length
    ? `(${waiting.length}) ${words.t("yourTurn")} · Mazziere`
    : current ? `${tableName(current)} · Mazziere` : "Mazziere";
  const elsewhere = waiting.filter((table) => table.id !== app.current);
  // A seat taken is kept no more, even if a lobby read sent before the player sat says it is.
  for (const id of Object.keys(app.kept)) if (sitsAt(id)) delete app.kept[id];
  const kept = Object.keys(app.kept).map((id) => [id, keptTableName(id)]);
  const strip = document.getElementById("turns");
  // Drawn again only when it says something else (it is a live region: a screen reader
  // reads it at each change); its clocks tick on their own, unread.
  const key = JSON.stringify([words.lang, elsewhere.map((table) => [table.id, tableName(table)]), kept]);
  if (strip.dataset.key === key) return;
  strip.dataset.key = key;
  strip.replaceChildren(...(elsewhere.length ? [h("span", {}, words.t("turnsElsewhere")),
    ...elsewhere.map((table) => h("a", { href: `#table/${table.id}`, "data-table": table.id }, tableName(table), " ",
      h("span", { class: "clock", "data-turn-clock": table.id, "aria-hidden": "true" }, waitingClock(table))))] : []),
    ...kept.map(([id, name]) => h("span", { class: "kept-seat" }, words.t("seatKept", name), " ",
      h("button", { type: "button", class: "primary", onclick: () => takeKeptSeat(id) }, words.t("sit")), " ",
      h("span", { class: "clock", "data-kept-clock": id, "aria-hidden": "true" }, keptText(id)))));
  strip.hidden = !elsewhere.length && !kept.length;
  // The line came or went above the table: the player's seat, if they act, in view again.
  if (current && myLegal(current)) requestAnimationFrame(showMySeat);
}

/** The seconds left to the decision, or to the offer, the room waits for at ``table``. */
function waitingClock(table) {
  return myLegal(table) ? clockText(table) : offerOpen(table) ? offerSeconds(table) : "";
}

// The chime: made by the page itself (nothing to fetch), and only once the player has
// touched the page, as browsers let a page sound only after that.
let audio = null;
function allowSound() {
  if (!audio && window.AudioContext) audio = new AudioContext();
}
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, allowSound, { once: true, capture: true });

/** Two short rising notes: the player's turn at a table they are not looking at. */
function chime() {
  if (!soundOn || !audio) return;
  if (audio.state === "suspended") audio.resume();
  const start = audio.currentTime + 0.01;
  [880, 1320].forEach((pitch, i) => {
    const at = start + 0.16 * i;
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = pitch;
    volume.gain.setValueAtTime(0.0001, at);
    volume.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.15);
    tone.connect(volume).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.16);
  });
}

// A redraw takes the field being typed in out of the page, and its focus with it: the next
// letters went to the page, where they are the table's shortcuts (f folds).  A field marked
// data-keep (the chat line, the amount) gets its focus and caret back after the redraw; so
// does a button marked so (the lobby's, redrawn as it changes under a keyboard's player).
function fieldTypedIn() {
  const field = document.activeElement;
  if (!field || !field.dataset?.keep) return null;
  return { key: field.dataset.keep, start: field.selectionStart, end: field.selectionEnd };
}

function typeOn(typing) {
  if (!typing || document.activeElement?.dataset?.keep === typing.key) return;
  const field = document.querySelector(`[data-keep="${typing.key}"]`);
  if (!field) return;
  field.focus();
  if (typing.start != null) field.setSelectionRange(typing.start, typing.end); // a number, a button: no caret
}

function renderLobby() {
  // The rule sets the room offers (an operator's lobby file may leave one out): a game with
  // no table has no section and no "play now", one with only tournaments a filter.
  const public_ = app.lobby.filter((t) => !t.private);
  const withTables = RULES.filter((r) => public_.some((t) => t.rules === r));
  const offered = RULES.filter((r) => withTables.includes(r) || app.tournaments.some((t) => t.rules === r));
  const filters = h("div", { class: "filters", role: "group", "aria-label": words.t("rules") },
    [null, ...offered].map((rules) => h("button", {
      type: "button", "aria-pressed": String(app.filter === rules), "data-keep": `filter-${rules}`,
      onclick: () => { app.filter = rules; render(); },
    }, rules ? words.t(rules) : words.t("all"))));
  const sections = withTables.filter((r) => app.filter === null || app.filter === r).map((rules) => {
    const rows = public_.filter((t) => t.rules === rules);
    return h("section", { "data-rules": rules },
      h("h2", {}, words.t(rules)),
      h("button", { type: "button", class: "primary play-now", "data-rules": rules, "data-keep": `play-${rules}`, onclick: () => playNow(rules) }, words.t("playNow")),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, words.t("name")), h("th", {}, words.t("stakes")),
          h("th", {}, words.t("seats")), h("th", {}, words.t("players")), h("th", {}))),
        h("tbody", {}, rows.map((t) => h("tr", { "data-table": t.id },
          h("td", {}, t.name), h("td", {}, t.stakes.label), h("td", {}, t.seats),
          h("td", {}, `${t.players + t.bots} (${t.bots} bot)`,
            t.waiting ? h("span", { class: "note waiting" }, ` · ${t.waiting} ${words.pick("in attesa", "waiting")}`) : null),
          h("td", { class: "row-actions" }, seatButton(t),
            " ", h("button", { type: "button", class: "watch", "data-keep": `watch-${t.id}`, "aria-label": `${words.pick("Guarda il tavolo", "Watch the table")} ${t.name}`,
              onclick: () => watch(t) }, words.pick("Guarda", "Watch"))))))));
  });
  const events = app.tournaments.filter((t) => (app.filter === null || app.filter === t.rules) && t.state !== "finished");
  const tournaments = !events.length ? null : h("section", { class: "tournaments" },
    h("h2", {}, words.pick("Tornei e sit & go", "Tournaments and sit & gos")),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, words.pick("Torneo", "Tournament")), h("th", {}, words.t("rules")),
        h("th", {}, "Buy-in"), h("th", {}, words.pick("Fiches", "Chips")), h("th", {}, words.t("players")), h("th", {}))),
      h("tbody", {}, events.map((t) => h("tr", { "data-tournament": t.id },
        h("td", {}, h("a", { href: `#tournament/${t.id}`, class: "tournament-link" }, t.name),
          // A scheduled tournament starts at its time; a sit & go when it is full.
          t.starts_at ? h("span", { class: "note starts-at" }, ` · ${words.pick("alle", "at")} ${new Date(t.starts_at).toLocaleTimeString(words.lang, { hour: "2-digit", minute: "2-digit" })}`) : null),
        h("td", {}, words.t(t.rules)), h("td", {}, `${t.buy_in} + ${t.fee}`),
        h("td", {}, t.starting_stack), h("td", {}, `${t.registered}/${t.max_players}`),
        h("td", { class: "lobby-state", "data-state": t.state }, t.state !== "registering" ? tournamentState(t.state)
          : h("button", { type: "button", class: isRegistered(t) ? "unregister" : "register", "data-keep": `register-${t.id}`, onclick: () => register(t) },
            isRegistered(t) ? words.pick("Annulla l'iscrizione", "Unregister") : words.pick("Iscriviti", "Register"))))))));
  const problem = app.lobbyProblem ? h("p", { class: "error lobby-problem", role: "alert" }, app.lobbyProblem()) : null;
  const said = app.lobbyNote?.();
  const note = said ? h("p", { class: "lobby-note", role: "status" }, said) : null;
  main.replaceChildren(h("div", { class: "lobby" }, problem, note, myTables(), filters, sections, tournaments));
}

/** A lobby row's way to a seat: sit; at a full table, join its waiting list (or leave it,
 * the player's place said); a seat the room keeps for the player, with its seconds. */
function seatButton(row) {
  const id = String(row.id);
  if (app.kept[id] !== undefined) {
    return h("button", { type: "button", class: "sit kept primary", "data-keep": `seat-${id}`, onclick: () => takeKeptSeat(id) },
      words.t("sitKept"), " ", h("span", { class: "clock", "data-kept-clock": id }, keptText(id)));
  }
  if (sitsAt(id) || row.open_seats > 0) {
    return h("button", { type: "button", class: "sit", "data-keep": `seat-${id}`, onclick: () => sitAt(row) }, words.t("sit"));
  }
  return row.you_wait
    ? h("button", { type: "button", class: "unwait", "data-keep": `seat-${id}`, onclick: () => waitFor(row, false) }, words.t("leaveList", row.you_wait))
    : h("button", { type: "button", class: "wait", "data-keep": `seat-${id}`, onclick: () => waitFor(row, true) }, words.t("waitingList"));
}

const onAWaitingList = () => app.lobby.some((row) => row.you_wait);

/** Join a full table's waiting list, or leave it.  The socket is opened first: the room
 * tells the player over it when a seat is kept for them, wherever the page is. */
async function waitFor(row, join) {
  if (!(await ensureAccount())) return;
  await connect();
  app.lobbyProblem = null;
  try {
    await api(join ? "POST" : "DELETE", `/api/tables/${row.id}/waiting-list`);
  } catch (error) {
    app.lobbyProblem = () => error.message; // said in the page, in its language
  }
  await refreshLobby();
  render();
  if (app.lobbyProblem) showLobbyAnswer();
}

/** The room keeps a seat for the player at a full table they waited for (``seconds``): said
 * under the header wherever the page is, chimed, and the lobby's row offers it. */
function seatKept(id, seconds) {
  keep(id, seconds);
  render();
  redrawFreshLobby();
}

/** A seat kept for the player for ``seconds``, chimed when the page learns of it (from the
 * room's message, or from the lobby when the message came while no socket was open). */
function keep(id, seconds) {
  if (app.kept[id] === undefined) chime();
  app.keptSaid[id] = performance.now();
  app.kept[id] = app.keptSaid[id] + seconds * 1000;
}

function keptText(id) {
  return words.t("seconds", Math.max(0, Math.ceil((app.kept[id] - performance.now()) / 1000)));
}

function keptTableName(id) {
  return app.lobby.find((t) => String(t.id) === id)?.name ?? app.invitedWaits[id]?.table.name ?? `#${id}`;
}

/** Sit at the seat kept for the player: a lobby table's, or a private table's whose waiting
 * list they joined from its invite (with the buy-in the host approved). */
async function takeKeptSeat(id) {
  const invited = app.invitedWaits[id];
  let row = invited ? null : app.lobby.find((t) => String(t.id) === id);
  if (!row && !invited) { await refreshLobby(); row = app.lobby.find((t) => String(t.id) === id); }
  delete app.kept[id];
  delete app.invitedWaits[id];
  if (invited) await sitAt(invited.table, { bots: false, buyIn: invited.buyIn });
  else if (row) await sitAt(row, { bots: false });
  else render();
}

/** A tournament's state in words (cancelled: its buy-ins refunded). */
function tournamentState(state) {
  return { registering: words.pick("iscrizioni aperte", "registering"), running: words.pick("in corso", "running"),
    finished: words.pick("finito", "finished"), cancelled: words.pick("annullato", "cancelled") }[state] ?? state;
}

/** Whether the player sits at table ``id``, as its last event says. */
function sitsAt(id) {
  return Boolean(app.tables[id]?.seats.some((s) => s.name === app.me));
}

/** The tables where the player sits (the socket's welcome names them, reopening the site
 * too), each one click away; nothing when there are none. */
function myTables() {
  const mine = Object.values(app.tables).filter((t) => sitsAt(t.id));
  if (!mine.length) return null;
  return h("section", { class: "my-tables" }, h("h2", {}, words.pick("I tuoi tavoli", "Your tables")),
    h("ul", {}, mine.map((t) => h("li", { "data-table": t.id },
      h("a", { href: `#table/${t.id}`, class: "my-table" }, tableName(t)), t.rules ? ` · ${words.t(t.rules)}` : "",
      awaits(t) ? h("strong", { class: "your-turn" }, ` · ${words.t("yourTurn")}`) : null))));
}

// The tournaments this page registered for (the lobby's list does not say whose they are).
const registered = new Set();
const isRegistered = (tournament) => tournament.you_are_registered || registered.has(tournament.id);

async function register(tournament) {
  if (!(await ensureAccount())) return;
  const path = `/api/tournaments/${tournament.id}/registration`;
  app.lobbyProblem = null;
  try {
    if (isRegistered(tournament)) {
      await api("DELETE", path);
      registered.delete(tournament.id);
    } else {
      await api("POST", path);
      registered.add(tournament.id);
    }
  } catch (error) {
    app.lobbyProblem = () => error.message; // said in the page, in its language
  }
  await session();
  showWho();
  await refreshLobby();
  render();
  if (app.lobbyProblem) showLobbyAnswer();
}

/** The lobby's answer to what the player pressed, brought into view: it is said at the
 * lobby's top, which a phone (or a long lobby) may have scrolled far from the button. */
function showLobbyAnswer() {
  document.querySelector(".lobby-problem, .lobby-note")?.scrollIntoView({ block: "nearest" });
}

// A sit & go starts when it is full (a scheduled tournament at its time): then the player's
// socket is opened again, and its welcome names the tournament's table.  Watched from the
// lobby's every reading, a reload's too, while the player waits for one to start.
let tournamentWatch = null;
function watchTournaments() {
  if (tournamentWatch || !app.tournaments.some((t) => isRegistered(t) && t.state === "registering")) return;
  tournamentWatch = setInterval(async () => {
    const waiting = app.tournaments.filter((t) => isRegistered(t) && t.state === "registering");
    if (!waiting.length) { clearInterval(tournamentWatch); tournamentWatch = null; return; }
    const now = await api("GET", "/api/tournaments").then((a) => a.tournaments, (error) => console.warn("room:", error.message));
    if (!now) return; // asked again at the next tick
    const started = waiting.some((t) => now.find((n) => n.id === t.id)?.state !== "registering");
    app.tournaments = now;
    if (started) {
      clearInterval(tournamentWatch); tournamentWatch = null;
      await noteTournamentTables(waiting);
      await reopenSocket();
      const table = Object.keys(app.tables)[0];
      if (table) openTable(table);
    } else if (!app.current) render();
  }, 2000);
}

/** The tables of these tournaments (the room's `GET /api/tournaments/<id>` lists them). */
async function noteTournamentTables(tournaments) {
  await Promise.all(tournaments.map(async (t) => {
    try {
      noteTournament(await api("GET", `/api/tournaments/${t.id}`));
    } catch (error) {
      console.warn("room:", error.message);
    }
  }));
}

// The lobby is live: while it is on screen, in a tab in front, the room's tables and
// tournaments are read again every LOBBY_SECONDS, and the lobby drawn again when they changed
// (who sits, who waits, who registered: a full table freeing, a sit & go filling).
const LOBBY_SECONDS = 10;
async function refreshShownLobby() {
  if (app.current || app.page || document.hidden) return;
  const before = JSON.stringify([app.lobby, app.tournaments]);
  try {
    await refreshLobby();
  } catch (error) {
    return; // a network blip: the next turn tries again
  }
  if (!app.current && !app.page && JSON.stringify([app.lobby, app.tournaments]) !== before) render();
}
setInterval(refreshShownLobby, LOBBY_SECONDS * 1000);
setInterval(checkSocket, 1000);
document.addEventListener("visibilitychange", refreshShownLobby); // back to a tab left behind

/** The lobby read again, then the page drawn; a read that fails (a network blip) is only
 * logged, the page as it was. */
function redrawFreshLobby() {
  refreshLobby().then(render, (error) => console.warn("lobby not refreshed:", error.message));
}

async function refreshLobby() {
  const asked = performance.now();
  const [tables, tournaments] = await Promise.all([api("GET", "/api/tables"), api("GET", "/api/tournaments")]);
  app.lobby = tables.tables;
  app.tournaments = tournaments.tournaments;
  // The seats kept for the player as the room has them (a page opened again learns of one
  // here); one no longer kept (taken, or its time up) is gone, unless the room said it kept
  // it after this read was asked for (the read's answer is older than the room's word).
  for (const row of app.lobby) {
    const id = String(row.id);
    if (row.seat_kept_seconds && !sitsAt(id)) keep(id, row.seat_kept_seconds);
    else if (!(app.keptSaid[id] > asked)) delete app.kept[id];
  }
  watchTournaments();
}

async function playNow(rules) {
  if (!(await ensureAccount())) return;
  await connect(); // (on a waiting list, the room tells the player over it when a seat is kept)
  app.lobbyNote = null;
  let chosen;
  try {
    chosen = await api("POST", "/api/play-now", { rules });
    app.lobbyProblem = null;
  } catch (error) {
    app.lobbyProblem = error.code === "no_such_table" ? () => words.t("noTables") : () => error.message;
  }
  await refreshLobby();
  if (chosen && !chosen.waiting) { await sitAt(chosen.table, { bots: true }); return; }
  // Every table of the game full: the room put the player on the waiting list where a seat
  // comes first; said while they wait there (their place as the lobby has it now).
  const id = chosen?.table.id;
  app.lobbyNote = () => {
    const row = app.lobby.find((t) => t.id === id);
    return row?.you_wait && !app.kept[String(row.id)] ? words.t("waitingAt", row.name, row.you_wait) : null;
  };
  render();
  showLobbyAnswer();
}

/** The buy-in offered at a table (a lobby's or private table's row): twice its minimum,
 * within its limits and the balance (`balance`: none known, no limit of its own). */
function defaultBuyIn(row, balance = Infinity) {
  return Math.min(row.max_buy_in, Math.max(row.min_buy_in, 2 * row.min_buy_in), balance);
}

/** Sit at ``row``'s table (a guest account made if needed); false when no account could be. */
async function sitAt(row, { bots = true, buyIn: chosen } = {}) {
  if (!(await ensureAccount())) return false;
  await connect();
  const id = String(row.id);
  app.leaving.delete(id); // back at a table just left
  const table = tableState(id);
  table.rules = row.rules; table.name = row.name; table.seatCount = row.seats; table.maxBuyIn = row.max_buy_in;
  table.stakes = table.stakes ?? row.stakes;
  const buyIn = chosen ?? defaultBuyIn(row, app.account.balance);
  if (!table.seats.some((s) => s.name === app.me)) send({ type: "sit", table: id, buy_in: buyIn });
  if (bots && row.players + row.bots < 2) send({ type: "add_bots", table: id, count: Math.min(2, row.seats - 1), kind: "basic" });
  openTable(id);
}

/**
 * Watch a table as a spectator (a lobby's row, or a table's number): the room sends its
 * events, and no hole card.
 */
async function watch(table) {
  if (!(await ensureAccount())) return;
  await connect();
  const id = String(table.id ?? table);
  send({ type: "watch", table: id });
  // The table is drawn once the room's snapshot of it has come (named as in the lobby).
  for (let waited = 0; !app.tables[id] && waited < 50; waited++) await new Promise((r) => setTimeout(r, 100));
  if (app.tables[id]) openTable(id);
}

// Hints for learners: the room says whether they are offered here and, at the player's own
// decision, works out the odds from their seat's view (GET /api/tables/{id}/hint).
// Only a player seated here is asked about (a visitor or a spectator never has hints), and
// one question at a time per table: asked again while one is on its way, it is asked once
// more after it.  A page opening a table hears its recent events told again, each change
// of the seats among them: one question each was dozens at once.
async function askHint(table) {
  if (!app.account || !table.seats.some((s) => s.name === app.me)) {
    table.hintsOffered = false;
    table.hintsOn = false;
    table.hint = null;
    return;
  }
  if (table.hintAsking) { table.hintAgain = true; return; }
  table.hintAsking = true;
  try {
    do {
      table.hintAgain = false;
      const turn = table.turn;
      try {
        const answer = await api("GET", `/api/tables/${table.id}/hint?lang=${words.lang}`);
        table.hintsOffered = answer.offered;
        if (!answer.offered) table.hintsOn = false;
        table.hint = answer.hint && turn ? { actionId: turn.action_id, ...answer.hint } : null;
      } catch (error) {
        table.hintsOffered = false;
        table.hint = null;
      }
    } while (table.hintAgain && app.account);
  } finally {
    table.hintAsking = false;
  }
  if (app.current === table.id) render();
}

function hintBar(table) {
  const legal = myLegal(table);
  const hint = table.hint;
  if (!table.hintsOn || !legal || !hint || hint.actionId !== table.turn.action_id) return null;
  const percent = (x) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)}%`;
  const box = h("div", { class: "hint", role: "status", "aria-label": words.pick("Consiglio", "Hint") });
  if (hint.equity !== null && hint.equity !== undefined) {
    const who = hint.opponents === 1 ? words.pick("1 avversario", "1 opponent") : words.pick(`${hint.opponents} avversari`, `${hint.opponents} opponents`);
    box.append(words.pick(`Consiglio: equità ${(100 * hint.equity).toFixed(1)}% contro ${who} (carte qualsiasi)`,
      `Hint: equity ${(100 * hint.equity).toFixed(1)}% against ${who} (any two cards)`));
    return box;
  }
  const drawing = legal.kinds.includes("draw");
  box.append(h("span", {}, words.pick("Consiglio: ", "Hint: ")));
  for (const option of hint.options.slice(0, drawing ? 3 : 1)) {
    const change = option.discard.length
      ? `${words.pick("cambia", "change")} ${option.discard.map(cardText).join(" ")}` : words.pick("servito", "stand pat");
    const made = option.categories.slice(0, 3).filter((c) => c.chance >= 0.005).map((c) => `${c.name} ${percent(c.chance)}`).join(", ");
    const text = `${change}: ${made}`;
    if (drawing) {
      // At the draw a way to change is one click: it marks those cards.
      box.append(h("button", { type: "button", class: "hint-option", "data-discard": option.discard.join(" "), "aria-label": text,
        onclick: () => { table.marked = new Set(option.discard); render(); } }, text));
    } else box.append(h("span", { class: "hint-option" }, text));
  }
  return box;
}

function openTable(id) {
  const another = app.current !== id;
  app.current = id;
  app.page = null;
  if (location.hash !== `#table/${id}`) history.replaceState(null, "", `#table/${id}`);
  askHint(app.tables[id]);
  render();
  if (another) window.scrollTo(0, 0); // a table opens at its top, not where the lobby was scrolled
}

function seatPosition(index, count) {
  // The player's own seat at the bottom; the others clockwise around the oval (kept far
  // enough from the edges that a seat is never cut, at any width).
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  return { left: 50 + 36 * Math.cos(angle), top: 50 + 40 * Math.sin(angle) };
}

function renderTable(table) {
  const hand = table.hand;
  const count = Math.max(table.seatCount, ...table.seats.map((s) => s.seat));
  const mySeat = table.seats.find((s) => s.name === app.me)?.seat ?? 1;
  const seatNodes = [];
  for (let seat = 1; seat <= count; seat++) {
    const place = seatPosition((seat - mySeat + count) % count, count);
    const sitter = table.seats.find((s) => s.seat === seat);
    const style = `left:${place.left}%;top:${place.top}%`;
    if (!sitter) {
      seatNodes.push(h("div", { class: "seat empty", style, "data-seat": seat }, words.t("empty")));
      continue;
    }
    const position = hand ? hand.seats.indexOf(seat) : -1;
    const inHand = position >= 0 && hand.names[position] === sitter.name;
    const me = sitter.name === app.me;
    const acting = table.turn && table.turn.name === sitter.name && !hand?.ended;
    const classes = ["seat", me && "me", acting && "acting", inHand && hand.folded[position] && "folded",
      inHand && hand.ended && hand.winners.has(position) && "winner"].filter(Boolean).join(" ");
    // Once the hand is over the seat's stack is the room's: a top-up or a rebuy shows.
    const stack = inHand && !hand.ended ? hand.stacks[position] : sitter.stack;
    const cards = inHand ? hand.hole[position] : [];
    const best = inHand && hand.ended ? hand.best[position] : null;
    const note = seatNote(sitter, table.gone.has(sitter.name) && !me);
    const described = [me ? `${sitter.name} (${words.t("you")})` : sitter.name, `${words.pick("fiches", "chips")} ${stack}`,
      note, acting && words.pick("di turno", "to act"), inHand && hand.folded[position] && words.pick("ha passato", "folded"),
      inHand && hand.ended && hand.winners.has(position) && words.pick("vince", "wins")].filter(Boolean).join(", ");
    seatNodes.push(h("div", { class: classes, style, "data-seat": seat, "data-name": sitter.name, role: "group", "aria-label": described },
      h("div", { class: "name" }, me ? `${sitter.name} (${words.t("you")})` : sitter.name,
        hand && hand.button === seat ? h("span", { class: "dealer", title: words.pick("mazziere", "dealer"), "aria-label": words.pick("mazziere", "dealer") }, "D") : null),
      h("div", { class: "stack" }, stack),
      note ? h("div", { class: "status" }, note) : null,
      h("div", { class: "cards" }, cards.map((code) => cardNode(table, code, me && inHand, best))),
      h("div", { class: "bet" }, inHand && hand.bets[position] ? `${words.pick("puntata", "bet")} ${hand.bets[position]}` : ""),
      inHand && hand.names_of[position] ? h("div", { class: "handname" }, hand.names_of[position]) : null,
      acting ? h("div", { class: "clock", "data-clock": "1" }, clockText(table)) : null));
  }
  const pots = hand && !hand.ended ? hand.pots.filter((pot) => pot.amount > 0) : [];
  const boardBest = hand && hand.ended ? [...hand.winners].flatMap((w) => hand.best[w] || []) : null;
  const centre = h("div", { class: "centre" },
    h("div", { class: "board cards", "aria-label": words.pick("carte comuni", "board") },
      hand ? hand.board.map((code) => cardNode(table, code, false, boardBest)) : []),
    pots.map((pot, i) => h("div", { class: i === 0 ? "pot" : "pot side", "data-pot": i }, `${i === 0 ? words.t("pot") : words.t("sidePot")}: ${pot.amount}`)),
    hand && !hand.ended && hand.opening ? h("div", { class: "opening" }, words.opening(hand.opening)) : null,
    hand && hand.ended ? showdownBanner(table) : null,
    // A pot nobody opened is carried too, but only everyone's parol makes a parol pot.
    !pots.length && table.carried
      ? h("div", { class: "pot carried" }, `${words.t(table.parolPot ? "carried" : "carriedDead")}: ${table.carried}`) : null);
  const felt = h("div", { class: "felt" }, h("div", { class: "oval" }), centre, seatNodes);
  const title = h("h2", {}, [tableName(table), words.t(table.rules || ""), table.stakes && words.stakes(table.rules, table.stakes)]
    .filter(Boolean).join(" · "));
  const log = h("div", { class: "log", role: "log", "aria-live": "polite" },
    table.log.filter((line) => !muted.has(line.who)).map((line) => h("p", { class: line.kind }, line.text,
      line.who && line.who !== app.me ? [muteButton(line.who), reportButton(table, line.who)] : null)));
  const held = table.held ? h("p", { class: "held", role: "status" }, words.pick(
    "Il tavolo è fermo: la sala non riesce a salvare le mosse e riprova da sola. Niente è perso; il tempo di chi deve agire non corre.",
    "The table is held: the room cannot store its moves for now and keeps trying. Nothing is lost, and the clock of whoever is to act stands still.")) : null;
  const left = h("div", {}, title, levelNote(table), tableStateNote(table), finishNotice(table), closedNotice(table), held, felt, actionBar(table), hintBar(table), preActionBar(table), offerBar(table), controls(table),
    table.error ? h("p", { class: "error", role: "alert", "data-code": table.error.code },
      words.error(table.error.code, table.error.message, table.error.of || "")) : null,
    h("button", { type: "button", class: "leave", onclick: () => leave(table) },
      staysSeated(table) || !table.seats.some((s) => s.name === app.me)
        ? words.pick("Torna alla sala", "Back to the lobby") : words.t("leave")), shortcutHelp());
  main.replaceChildren(h("div", { class: "tablewrap" }, left, log));
  log.scrollTop = log.scrollHeight;
}

/** Why a seated player is not dealt in, when they are not: sitting out, away from a
 * tournament's table, waiting to come in, out of chips; or that their connection is gone
 * (``gone``: they may not answer, and their clock runs) ("" when they play). */
function seatNote(sitter, gone) {
  if (sitter.away) return words.pick("assente", "away");
  const note = {
    "sitting-out": words.pick("salta le mani", "sitting out"),
    waiting: words.pick("in attesa", "waiting"),
    busted: words.pick("senza fiches", "no chips"),
  }[sitter.status] ?? "";
  const disconnected = words.pick("disconnesso", "disconnected");
  return gone ? (note ? `${note} · ${disconnected}` : disconnected) : note;
}

/** The button beside another player's chat line that hides their chat in this browser. */
function muteButton(name) {
  const label = words.pick(`Silenzia la chat di ${name}`, `Mute ${name}'s chat`);
  return h("button", { type: "button", class: "mute", title: label, "aria-label": label,
    "data-name": name, onclick: () => setMuted(name, true) }, words.pick("silenzia", "mute"));
}

/** The button beside another player's chat line that reports them to the room's operator
 * (asked why first; the answer, sent or refused, is said in the table's log). */
function reportButton(table, name) {
  const label = words.pick(`Segnala ${name} a chi gestisce la sala`, `Report ${name} to the room's operator`);
  return h("button", { type: "button", class: "report", title: label, "aria-label": label, "data-name": name,
    onclick: async () => {
      const reason = prompt(words.pick(`Perché segnali ${name}?`, `Why do you report ${name}?`));
      if (!reason || !reason.trim()) return;
      try {
        await api("POST", "/api/reports", { player: name, table: Number(table.id) || null, reason: reason.slice(0, 200) });
        say(table, words.pick(`Hai segnalato ${name}: chi gestisce la sala lo leggerà.`, `You reported ${name}: the room's operator will read it.`), "note");
      } catch (error) {
        say(table, error.message, "error");
      }
      render();
    } }, words.pick("segnala", "report"));
}

/** The players muted in this browser, each with its button to hear them again. */
function mutedNote() {
  if (!muted.size) return null;
  return h("span", { class: "muted-players note" }, words.pick("Chat silenziata:", "Chat muted:"),
    [...muted].map((name) => h("button", { type: "button", class: "unmute", "data-name": name,
      "aria-label": words.pick(`Riattiva la chat di ${name}`, `Unmute ${name}'s chat`),
      onclick: () => setMuted(name, false) }, `${name} ✕`)));
}

/** A table by its name; one without (a tournament's, or not known yet) by its number. */
function tableName(table) {
  const number = `${words.pick("Tavolo", "Table")} ${table.id}`;
  const tournament = app.tournamentNames.get(app.tournamentTables.get(table.id));
  return table.name ?? (tournament ? `${tournament} · ${number.toLowerCase()}` : number);
}

/** A tournament's table: its level and stakes, then what comes next and when (a level by
 * minutes and a break count down; a level by hands counts the hands left). */
function levelText(table) {
  const level = table.level;
  const stakes = words.stakes(table.rules, level.stakes);
  const left = level.seconds_left === null ? null
    : Math.max(0, Math.ceil(level.seconds_left - (Date.now() - level.at) / 1000));
  const time = left === null ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if (level.on_break) {
    return words.pick(`Pausa: si riprende tra ${time}, livello ${level.number} (${stakes}).`,
      `Break: play resumes in ${time}, level ${level.number} (${stakes}).`);
  }
  const now = words.pick(`Livello ${level.number}: ${stakes}.`, `Level ${level.number}: ${stakes}.`);
  if (!level.next_stakes) return `${now} ${words.pick("Ultimo livello.", "Last level.")}`;
  const next = words.stakes(table.rules, level.next_stakes);
  let when;
  if (level.hands_left === 0) when = words.pick(`Ultima mano del livello; poi ${next}.`, `Last hand of the level; then ${next}.`);
  else if (level.hands_left !== null) {
    when = words.pick(`Prossimo livello (${next}) tra ${level.hands_left} ${level.hands_left === 1 ? "mano" : "mani"}.`,
      `Next level (${next}) in ${level.hands_left} ${level.hands_left === 1 ? "hand" : "hands"}.`);
  } else if (left === 0) when = words.pick(`Prossimo livello (${next}) dalla prossima mano.`, `Next level (${next}) from the next hand.`);
  else when = words.pick(`Prossimo livello (${next}) tra ${time}.`, `Next level (${next}) in ${time}.`);
  return `${now} ${when}`;
}

function levelNote(table) {
  if (!table.level || table.over || table.closed) return null; // no more levels here
  return h("p", { class: "level", role: "status", "data-level": table.level.number, "data-level-clock": "" }, levelText(table));
}

/** The host's controls as the players see them: the pause, and the stakes of the next hand. */
function tableStateNote(table) {
  const playing = table.hand && !table.hand.ended;
  const parts = [
    table.paused && (playing
      ? words.pick("L'host mette in pausa il tavolo alla fine di questa mano.", "The host pauses the table at the end of this hand.")
      : words.pick("In pausa: il tavolo riprende quando l'host lo decide.", "Paused by the host: the table goes on when the host resumes it.")),
    table.nextStakes && words.pick(`Dalla prossima mano: ${words.stakes(table.rules, table.nextStakes)}.`,
      `From the next hand: ${words.stakes(table.rules, table.nextStakes)}.`),
  ].filter(Boolean);
  return parts.length ? h("p", { class: "table-state", role: "status" }, parts.join(" ")) : null;
}

function cardNode(table, code, mine, best = null) {
  const node = cardSvg(code, { fourColours });
  if (best && best.includes(code)) node.classList.add("best"); // a card of the winning hand
  const drawing = mine && myLegal(table)?.kinds.includes("draw");
  if (drawing) {
    node.classList.add("clickable");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-pressed", String(table.marked.has(code)));
    node.setAttribute("aria-label", `${words.pick("Cambia", "Change")} ${cardText(code)}`);
    if (table.marked.has(code)) node.classList.add("marked");
    const toggle = () => {
      if (table.marked.has(code)) table.marked.delete(code);
      else if (table.marked.size < myLegal(table).max_to) table.marked.add(code);
      render();
    };
    node.addEventListener("click", toggle);
    node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
  }
  return node;
}

/** Seconds since the turn was told (a held table's clock stands still). */
function turnSecondsGone(table) {
  return ((table.held ? table.heldAt : performance.now()) - table.turnAt) / 1000;
}

function clockText(table) {
  const turn = table.turn;
  if (!turn) return "";
  const gone = turnSecondsGone(table);
  const left = Math.max(0, Math.ceil(turn.deadline - gone));
  const bank = Math.ceil(turn.time_bank - Math.max(0, gone - turn.deadline));
  return left > 0 ? words.t("seconds", left) : words.t("bank", Math.max(0, bank));
}

// The showdown told in the middle of the table: who won each pot, with which hand.
function showdownBanner(table) {
  const hand = table.hand;
  const pots = hand.resultPots && hand.resultPots.length > 1
    ? hand.resultPots.map((pot, i) => ({ pot: i, amount: pot.amount, winners: pot.winners, shares: hand.awards.find((a) => a.pot === i)?.shares }))
    : hand.awards;
  if (!pots.length) return null;
  return h("div", { class: "showdown", role: "status" }, pots.map((award) => {
    // A split pot: each winner's share said once, and a hand's name once when they hold the same.
    const made = [...new Set(award.winners.map((w) => hand.names_of[w]).filter((name) => name && name !== "…"))];
    const which = pots.length > 1 ? ` (${award.pot === 0 ? words.t("pot") : `${words.t("sidePot")} ${award.pot}`})` : "";
    return h("p", { "data-pot": award.pot }, `${words.wonShares(winnersOf(table, award.winners), award.amount, award.shares)}${which}`,
      made.length ? ` · ${made.join("; ")}` : "");
  }));
}

/** What the player would have to put in to call now (0: nothing), as the bets stand. */
function toCall(table) {
  const hand = table.hand;
  const me = hand ? hand.names.indexOf(app.me) : -1;
  if (me < 0) return 0;
  return Math.max(0, Math.min(Math.max(...hand.bets) - hand.bets[me], hand.stacks[me]));
}

function playPreAction(table, turn) {
  const kind = preActionMove(table.pre, turn.legal);
  table.pre = null; // the turn came: the choice is used, or the player decides
  if (kind) act(table, kind);
}

// While another player is to act: fold, check/fold, check, call, call any, chosen ahead.
function preActionBar(table) {
  const hand = table.hand;
  if (!hand || hand.ended || myLegal(table) || !table.turn || table.turn.name === app.me) return null;
  const me = hand.names.indexOf(app.me);
  if (me < 0 || hand.folded[me] || hand.stacks[me] <= 0) return null;
  const owed = toCall(table);
  if (table.pre && !preActionHolds(table.pre, owed)) table.pre = null;
  const ctx = context(table);
  const labels = {
    "fold": words.action("fold", ctx, { to_call: owed }),
    "check-fold": words.checkOrFold(ctx),
    "check": words.action("check", ctx, { to_call: 0 }),
    "call": words.action("call", ctx, { to_call: owed }),
    "call-any": words.t("callAny"),
  };
  const group = h("div", { class: "actions preactions", role: "group", "aria-label": words.t("preActions") },
    h("span", { class: "note" }, words.t("preActions")));
  for (const kind of offeredPreActions(owed)) {
    const box = h("input", { type: "checkbox", "data-pre": kind, checked: table.pre?.kind === kind, "aria-label": labels[kind] });
    box.addEventListener("change", () => {
      table.pre = box.checked ? { kind, amount: owed } : null;
      render();
    });
    group.append(h("label", { class: "toggle pre" }, box, " ", labels[kind]));
  }
  return group;
}

function myLegal(table) {
  const turn = table.turn;
  if (!turn || turn.name !== app.me || !turn.legal || table.hand?.ended) return null;
  // Italian-32's raise window has shut: what the room said stands after it.
  return raiseShut(table) ? turn.legal_after_raise : turn.legal;
}

/** The seconds left to raise, while the turn's raise window runs ("" when none runs). */
function raiseWindowText(table) {
  const turn = table.turn;
  if (!myLegal(table) || turn.raise_seconds == null || raiseShut(table)) return "";
  return words.t("raiseWindow", Math.max(1, Math.ceil(turn.raise_seconds - turnSecondsGone(table))));
}

/** Whether the turn's raise window (the seconds the room said it offers a raise) is over. */
function raiseShut(table) {
  const turn = table.turn;
  return turn?.raise_seconds != null && turnSecondsGone(table) >= turn.raise_seconds;
}

function act(table, kind, extra = {}) {
  const turn = table.turn;
  send({ type: "act", table: table.id, action_id: turn.action_id, kind, ...extra });
  table.turn = { ...turn, legal: null }; // answered: wait for the room
  table.marked.clear();
  table.confirmingFold = false;
  render();
}

/** At a new turn of the player's, their seat in view above the bar of buttons (a phone's page
 * is taller than its window): scrolled only as far as needed, by what the page measures (the
 * bar takes one row on a laptop, three on a phone in Italian); where it shows, nothing moves. */
function showMySeat() {
  const seat = document.querySelector(".seat.me");
  const bar = document.querySelector(".actions[role=toolbar]");
  if (!seat || !bar) return;
  const { top, bottom } = seat.getBoundingClientRect();
  const above = Math.min(bar.getBoundingClientRect().top, window.innerHeight) - 8;
  if (bottom > above) window.scrollBy(0, bottom - above);
  else if (top < 0) window.scrollBy(0, top - 8);
}

function actionBar(table) {
  // The bar is built again only when the decision changes, so that a message arriving
  // while the player drags the slider or types an amount does not reset it.
  const key = actionBarKey(table);
  if (table.bar && table.bar.key === key) return table.bar.node;
  const legal = myLegal(table);
  if (legal && table.turn.action_id !== table.turnShown) {
    table.turnShown = table.turn.action_id;
    requestAnimationFrame(showMySeat);
  }
  const node = buildActionBar(table, legal);
  table.bar = { key, node };
  return node;
}

function actionBarKey(table) {
  return JSON.stringify([words.lang, table.turn?.action_id, myLegal(table), [...table.marked],
    table.hand?.number, table.hand?.ended, table.confirmingFold, table.paused, Boolean(table.over || table.closed), betweenHands(table)]);
}

/** What the table waits for between hands, as the player can change it: the host's pause,
 * the player sitting out or out of chips, a second player (a table waiting for its next
 * hand said so even where none could come). */
function betweenHands(table) {
  if (table.paused) return words.pick("Tavolo in pausa.", "The table is paused.");
  const me = table.seats.find((s) => s.name === app.me);
  if (me?.status === "sitting-out") {
    return words.pick("Salti le mani: «Torno al gioco» per rientrare.", "You are sitting out: “Sit back in” to play.");
  }
  if (me?.status === "busted") return words.pick("Hai finito le fiches: ricarica per giocare ancora.", "Out of chips: top up to play on.");
  const ready = table.seats.filter((s) => s.status === "playing" || s.status === "waiting");
  if (ready.length < 2) return words.pick("In attesa di altri giocatori…", "Waiting for more players…");
  return words.t("waiting");
}

function buildActionBar(table, legal) {
  const bar = h("div", { class: "actions", role: "toolbar", "aria-label": words.t("yourTurn") });
  if (!legal) {
    if ((!table.hand || table.hand.ended) && !table.over && !table.closed) {
      bar.append(h("span", { class: "note" }, betweenHands(table)));
    }
    return bar;
  }
  const ctx = context(table);
  const kinds = legal.kinds.filter((k) => k !== "timeout");
  const button = (kind, label, extra) => h("button", {
    type: "button", class: kind === "fold" ? "" : "primary", "data-kind": kind, "aria-label": label,
    onclick: () => {
      if (kind === "fold" && legal.confirm_fold && kinds.includes("check")) {
        table.confirmingFold = true; render(); return; // checking is free: ask first
      }
      act(table, kind, extra ? extra() : {});
    },
  }, label);
  if (table.confirmingFold) {
    // The fold asked about: fold anyway (f again), check instead (c), or think again (Esc).
    const fold = words.pick("Passo lo stesso", "Fold anyway");
    bar.append(h("span", { class: "note", role: "alert" }, words.t("confirmFold")),
      h("button", { type: "button", "data-kind": "fold", "data-confirm": "fold", "aria-label": fold, onclick: () => act(table, "fold") }, fold),
      h("button", { type: "button", class: "primary", "data-kind": "check", "aria-label": words.action("check", ctx, legal), onclick: () => act(table, "check") },
        words.action("check", ctx, legal)),
      h("button", { type: "button", "data-confirm": "cancel", onclick: () => { table.confirmingFold = false; render(); } }, words.pick("Annulla", "Cancel")));
    return bar;
  }
  if (kinds.includes("draw")) {
    bar.append(h("span", { class: "note" }, words.t("markHint")));
    const n = table.marked.size;
    bar.append(button("draw", words.action("draw", ctx, legal, { discards: n }), () => ({ cards: [...table.marked] })));
    return bar;
  }
  for (const kind of ["fold", "check", "call", "parol", "show", "muck"]) {
    if (kinds.includes(kind)) bar.append(button(kind, words.action(kind, ctx, legal)));
  }
  const sizing = kinds.find((k) => k === "bet" || k === "raise");
  if (sizing) {
    const hand = table.hand;
    const pot = hand ? hand.pots.reduce((sum, p) => sum + p.amount, 0) + hand.bets.reduce((a, b) => a + b, 0) : 0;
    const clamp = (value) => Math.max(legal.min_to, Math.min(legal.max_to, Math.round(value)));
    let amount = legal.min_to;
    const label = () => words.action(sizing, ctx, legal, { amount });
    const betButton = button(sizing, label(), () => ({ amount }));
    const number = h("input", { type: "number", class: "amount", "data-keep": "amount", min: legal.min_to, max: legal.max_to, value: amount, "aria-label": words.t("amount") });
    const slider = h("input", { type: "range", min: legal.min_to, max: legal.max_to, value: amount, step: 1, "aria-label": words.t("amount") });
    const set = (value) => {
      amount = clamp(Number(value) || legal.min_to);
      slider.value = amount; number.value = amount; betButton.textContent = label();
    };
    slider.addEventListener("input", () => set(slider.value));
    number.addEventListener("change", () => { if (!redrawing) set(number.value); }); // typing goes on after it
    // Each digit counts at once, the field left as typed (the change above tidies it): a
    // redraw after the last digit fires the field's change inside it, and Enter then
    // changes nothing, so the button kept the smallest raise, and would have raised that.
    number.addEventListener("input", () => {
      amount = clamp(Number(number.value) || legal.min_to);
      slider.value = amount; betButton.textContent = label();
    });
    bar.append(betButton);
    const raiseLeft = raiseWindowText(table);
    if (sizing === "raise" && raiseLeft) {
      // Italian-32: the raise is offered for ten seconds; the seconds left tick beside it.
      bar.append(h("span", { class: "note raise-window", "data-raise-clock": "1", role: "timer" }, raiseLeft));
    }
    if (legal.max_to > legal.min_to) {
      // A pot-sized raise: call first, then raise by the pot as it would be after the call.
      const mine = hand ? hand.bets[hand.names.indexOf(app.me)] || 0 : 0;
      const toCall = legal.to_call || 0;
      const potRaise = (fraction) => mine + toCall + fraction * (pot + toCall);
      bar.append(slider, number,
        h("button", { type: "button", onclick: () => set(legal.min_to) }, words.t("min")),
        h("button", { type: "button", onclick: () => set(potRaise(0.5)) }, words.t("halfPot")),
        h("button", { type: "button", onclick: () => set(potRaise(1)) }, words.t("potBet")),
        h("button", { type: "button", onclick: () => set(legal.max_to) }, words.t("allIn")));
    }
  } else if (kinds.includes("all-in")) {
    bar.append(button("all-in", words.action("all-in", ctx, legal)));
  }
  return bar;
}

/** Whether the room waits for the player's answer to an offer at ``table``. */
function offerOpen(table) {
  return table.offer !== null && performance.now() < table.offer.until;
}

/** The seconds left to answer the offer at ``table``, as its clock says them. */
function offerSeconds(table) {
  return words.t("seconds", Math.max(1, Math.ceil((table.offer.until - performance.now()) / 1000)));
}

function offerBar(table) {
  const offer = table.offer;
  if (!offerOpen(table)) return null;
  const answer = (accept) => { send({ type: "answer", table: table.id, accept }); table.offer = null; render(); };
  const text = offer.kind === "invito"
    ? words.pick(`Metti l'invito di ${offer.amount}?`, `Post the invito of ${offer.amount}?`)
    : words.pick(`Paghi ${offer.amount} per rientrare nel piatto?`, `Pay ${offer.amount} to come back into the pot?`);
  return h("div", { class: "actions offer", role: "group" }, h("span", {}, text, " ", h("span", { class: "clock", "data-offer-clock": "1" }, offerSeconds(table))),
    h("button", { type: "button", class: "primary", "data-answer": "yes", onclick: () => answer(true) }, words.pick("Sì", "Yes")),
    h("button", { type: "button", "data-answer": "no", onclick: () => answer(false) }, words.pick("No", "No")));
}

function controls(table) {
  const me = table.seats.find((s) => s.name === app.me);
  if (!me) return spectatorControls(table);
  const out = me.status === "sitting-out";
  // Asked during a hand, sitting out waits for its end: the room tells the player alone,
  // and the same button takes it back (a sit_in before the end clears it).
  const outNext = !out && me.sit_out_next === true;
  const label = out ? words.pick("Torno al gioco", "Sit back in")
    : outNext ? words.pick("Salterai le prossime mani · annulla", "Sitting out from the next hand · undo")
    : words.pick("Salto le prossime mani", "Sit out");
  const row = h("div", { class: "actions controls" },
    h("button", { type: "button", class: outNext ? "sit-out pending" : "sit-out", "aria-pressed": String(outNext),
      onclick: () => send({ type: out || outNext ? "sit_in" : "sit_out", table: table.id }) }, label));
  if (table.rules === "italian-classic" && !app.tournamentTables.has(table.id)) {
    // (A tournament posts the invito for everyone: nothing to choose there.)
    const box = h("input", { type: "checkbox", checked: table.autoPost });
    box.addEventListener("change", () => {
      table.autoPost = box.checked;
      if (box.checked) noAutoPost.delete(table.id); else noAutoPost.add(table.id);
      localStorage.setItem("mazziere.noAutoPost", JSON.stringify([...noAutoPost]));
      send({ type: "auto_post", table: table.id, on: box.checked });
    });
    row.append(h("label", { class: "toggle" }, box, " ", words.pick("Invito automatico", "Post the invito automatically")));
  }
  if (table.hintsOffered) {
    // Off by default; offered only where the room allows hints (every other seat a bot,
    // or a host who allows them; never in tournaments).
    const box = h("input", { type: "checkbox", class: "hints", checked: table.hintsOn });
    box.addEventListener("change", () => {
      table.hintsOn = box.checked;
      if (box.checked && myLegal(table)) askHint(table);
      render();
    });
    row.append(h("label", { class: "toggle" }, box, " ", words.pick("Consigli (probabilità)", "Hints (odds)")));
  }
  // The chime of a turn at a table not on screen (one setting for every table, kept).
  const sound = h("input", { type: "checkbox", class: "sound", checked: soundOn });
  sound.addEventListener("change", () => {
    soundOn = sound.checked;
    localStorage.setItem("mazziere.sound", soundOn ? "1" : "0");
  });
  row.append(h("label", { class: "toggle", title: words.t("soundWhy") }, sound, " ", words.t("sound")));
  const playing = table.hand && !table.hand.ended && table.hand.names.includes(app.me);
  if (table.maxBuyIn && me.stack < table.maxBuyIn && !playing) {
    row.append(h("button", { type: "button", onclick: () => send({ type: "top_up", table: table.id, amount: table.maxBuyIn - me.stack }) },
      `${words.pick("Ricarica a", "Top up to")} ${table.maxBuyIn}`));
  }
  const chat = h("input", { type: "text", "data-keep": "chat", maxlength: 280, value: table.chatDraft ?? "",
    placeholder: words.pick("Scrivi al tavolo…", "Say something…"), "aria-label": words.pick("Chat del tavolo", "Table chat") });
  chat.addEventListener("input", () => { table.chatDraft = chat.value; }); // the next redraw's field shows it
  chat.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && chat.value.trim()) {
      send({ type: "chat", table: table.id, text: chat.value.trim() });
      chat.value = table.chatDraft = "";
    }
    e.stopPropagation(); // letters typed here are not shortcuts
  });
  row.append(chat);
  const mutedPlayers = mutedNote();
  if (mutedPlayers) row.append(mutedPlayers);
  return row;
}

/** A spectator of a lobby's cash table may take a free seat from where they watch (not
 * once it closed). */
function spectatorControls(table) {
  const row = app.lobby.find((t) => String(t.id) === table.id && !t.private);
  if (!row || table.closed || app.tournamentTables.has(table.id) || table.seats.length >= table.seatCount) return null;
  return h("div", { class: "actions controls" },
    h("button", { type: "button", class: "primary sit-down", onclick: () => sitAt(row, { bots: false }) },
      words.pick("Siediti al tavolo", "Sit down")));
}

// Keyboard: f fold, c check or call, b bet or raise, a all-in, p parol, d draw, s show,
// m muck, 1-5 mark a card for the draw, Esc: do not fold after all.  The page lists them
// (shortcutHelp), in the player's language.
const KEYS = { f: "fold", c: ["check", "call"], b: ["bet", "raise"], a: "all-in", p: "parol", d: "draw", s: "show", m: "muck" };

function shortcutHelp() {
  const keys = [["F", words.pick("passo / esco", "fold")], ["C", words.pick("busso, cip o vedo", "check or call")],
    ["B", words.pick("apro, punto o rilancio", "bet or raise")], ["A", "all-in"], ["P", "parol / parole"],
    ["D", words.pick("cambio le carte segnate (servito se nessuna)", "draw the marked cards (stand pat if none)")],
    ["1–5", words.pick("segna la carta da cambiare", "mark a card to change")],
    ["S / M", words.pick("mostro / non mostro", "show / muck")], ["Esc", words.pick("annulla il passo", "cancel the fold")]];
  // The table is drawn anew at every event: the list stays open (or closed) as the player left it.
  const toggled = (event) => { app.shortcutsOpen = event.target.open; };
  return h("details", { class: "shortcuts", open: Boolean(app.shortcutsOpen), ontoggle: toggled },
    h("summary", {}, words.pick("Scorciatoie da tastiera", "Keyboard shortcuts")),
    h("dl", {}, keys.flatMap(([key, what]) => [h("dt", {}, h("kbd", {}, key)), h("dd", {}, what)])));
}

document.addEventListener("keydown", (event) => {
  if (!app.current || event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
  const table = app.tables[app.current];
  if (!table || !myLegal(table)) return;
  if (event.key === "Escape" && table.confirmingFold) { table.confirmingFold = false; render(); return; }
  if (/^[1-5]$/.test(event.key)) {
    const card = document.querySelectorAll(".seat.me .card.clickable")[Number(event.key) - 1];
    if (card) card.dispatchEvent(new MouseEvent("click"));
    return;
  }
  for (const kind of [KEYS[event.key]].flat()) {
    const button = kind && document.querySelector(`.actions button[data-kind="${kind}"]`);
    if (button) { button.click(); return; }
  }
});

/** A tournament's player: seated to the end, whether they watch the table or not. */
function staysSeated(table) {
  return app.tournamentTables.has(table.id) && table.seats.some((s) => s.name === app.me);
}

function leave(table) {
  if (staysSeated(table)) {
    // Back to the lobby, the seat kept (the table's page is one click away again).
    backToLobby();
    return;
  }
  if (table.seats.some((s) => s.name === app.me)) {
    send({ type: "leave", table: table.id });
    app.leaving.add(table.id);
  } else send({ type: "unwatch", table: table.id }); // a spectator stops watching
  delete app.tables[table.id];
  backToLobby();
}

function backToLobby() {
  app.current = null;
  history.pushState(null, "", "#");
  window.scrollTo(0, 0);
  // The lobby at once, as last seen, then as the room has it now: a failed refresh (a
  // network blip) leaves the player in the lobby, not on the table they left.
  render();
  redrawFreshLobby();
}

// ------------------------------------------------------------------ start

async function route() {
  app.page = pageFor(location.hash);
  if (app.page) { app.current = null; await app.page.open(); render(); return; }
  const match = location.hash.match(/^#table\/(\w+)$/);
  const invited = location.hash.match(/^#sit\/(\w+)$/);
  if (invited) {
    // A shared link to a table: sit there (a guest account is made if needed).
    await refreshLobby();
    const row = app.lobby.find((t) => String(t.id) === invited[1]);
    if (row && (await sitAt(row, { bots: false })) !== false) return;
    app.current = null; // (no account to sit with: the lobby, the header says why)
  } else if (match && app.tables[match[1]]) { openTable(match[1]); return; }
  else { app.current = null; await refreshLobby(); }
  render();
}

async function start() {
  document.getElementById("lang").addEventListener("click", () => {
    words = new Words(words.it ? "en" : "it");
    localStorage.setItem("mazziere.lang", words.lang);
    render();
  });
  const four = document.getElementById("four-colour");
  four.checked = fourColours;
  four.addEventListener("change", () => {
    fourColours = four.checked;
    localStorage.setItem("mazziere.fourColours", fourColours ? "1" : "0");
    render();
  });
  document.getElementById("home").addEventListener("click", (e) => { e.preventDefault(); history.pushState(null, "", "#"); route(); });
  window.addEventListener("popstate", route);
  await refreshLobby();
  if (await session()) {
    await readWallet();
    showWho();
    const welcome = await connect(); // a player back at their tables finds them
    for (const id of welcome.tables) tableState(id);
    await noteTournamentTables(app.tournaments.filter((t) => t.you_are_registered && t.state === "running"));
  }
  await route();
  // The clock of whoever is to act ticks between messages; a bar that no longer says what
  // may be done (a raise window shut) is drawn again.
  setInterval(() => {
    const table = app.current ? app.tables[app.current] : null;
    const clock = document.querySelector("[data-clock]");
    if (clock && table) clock.textContent = clockText(table);
    const raiseClock = document.querySelector("[data-raise-clock]");
    if (raiseClock && table) raiseClock.textContent = raiseWindowText(table);
    const levelClock = document.querySelector("[data-level-clock]");
    if (levelClock && table?.level) levelClock.textContent = levelText(table);
    const offerClock = document.querySelector("[data-offer-clock]");
    if (offerClock && table && offerOpen(table)) offerClock.textContent = offerSeconds(table);
    for (const turnClock of document.querySelectorAll("[data-turn-clock]")) {
      const waiting = app.tables[turnClock.dataset.turnClock];
      if (waiting) turnClock.textContent = waitingClock(waiting);
    }
    for (const keptClock of document.querySelectorAll("[data-kept-clock]")) {
      if (app.kept[keptClock.dataset.keptClock] !== undefined) keptClock.textContent = keptText(keptClock.dataset.keptClock);
    }
    // A seat kept whose time is up is the next player's: off the page, the lobby as it is now.
    const lapsed = Object.keys(app.kept).filter((id) => app.kept[id] <= performance.now());
    for (const id of lapsed) delete app.kept[id];
    if (lapsed.length) redrawFreshLobby();
    // An offer whose time is up is gone (the room took it as a no): off the page.
    const expired = Object.values(app.tables).filter((t) => t.offer && !offerOpen(t));
    for (const gone of expired) gone.offer = null;
    if (expired.length) render();
    if (table?.bar && table.bar.key !== actionBarKey(table)) render();
  }, 500);
}

// What the other pages (pages.js) use of the room's client.
export {
  api, app, connect, defaultBuyIn, ensureAccount, h, keep, keptText, noteTournament, openTable, refreshBalance, rematchOffer, render, reopenSocket, send, session, showWho, sitAt,
  takeKeptSeat, tournamentState, watch, words,
};

start();
