// Italian and English: the page's words, and the names of the actions as the rules call them.
const WORDS = {
  it: {
    fourColour: "4 colori", lobby: "Sala", playNow: "Gioca ora", sit: "Siedi",
    rules: "Gioco", name: "Tavolo", stakes: "Poste", seats: "Posti", players: "Giocatori",
    all: "Tutti", guest: "ospite", balance: "saldo", leave: "Lascia il tavolo",
    pot: "Piatto", sidePot: "Piatto laterale", carried: "Piatto del parol", yourTurn: "Tocca a te",
    markHint: "Clicca le carte da cambiare.", waiting: "In attesa della prossima mano…",
    handStarts: (n) => `Mano n. ${n}`, you: "Tu", empty: "libero",
    noTables: "Nessun tavolo libero per questo gioco.", connecting: "Connessione…",
    offline: "Connessione persa: mi ricollego…",
    tooManyConnections: "Troppe connessioni aperte con questo account: chiudi un'altra scheda della sala. Mi ricollego…",
    refused: "La sala ha rifiutato la connessione: ricarica la pagina.",
    "italian-classic": "Poker all'italiana (classico)", "italian-32": "Poker all'italiana (32 carte)",
    holdem: "Texas Hold'em No-Limit", amount: "Importo", min: "Min", halfPot: "½ piatto",
    potBet: "Piatto", allIn: "All-in", confirmFold: "Puoi bussare gratis: passare lo stesso?",
    seconds: (s) => `${s} s`, bank: (s) => `+${s} s riserva`, error: "Errore",
    raiseWindow: (s) => `Puoi rilanciare ancora per ${s} s`,
    privateTables: "Tavoli privati", myHands: "Le mie mani", rulesPage: "Regole",
    preActions: "Prima del mio turno:", callAny: "Vedo qualsiasi puntata", carriedDead: "Piatto riportato",
    reshuffled: "Gli scarti rimescolati fanno il nuovo mazzo",
    sound: "Suono del turno", turnsElsewhere: "Tocca a te:",
    soundWhy: "Un suono quando tocca a te a un tavolo che non stai guardando",
    waitingList: "Lista d'attesa", leaveList: (n) => `Esci dalla lista (${n}°)`,
    seatKept: (name) => `Un posto è tuo a ${name}:`, sitKept: "Siedi: il posto è tuo",
    waitingAt: (name, n) => `Tutti i tavoli sono pieni: sei in lista d'attesa a ${name} (${n}°). Il primo posto che si libera è tenuto per te: te lo diciamo qui sopra.`,
  },
  en: {
    fourColour: "4 colours", lobby: "Lobby", playNow: "Play now", sit: "Sit",
    rules: "Game", name: "Table", stakes: "Stakes", seats: "Seats", players: "Players",
    all: "All", guest: "guest", balance: "balance", leave: "Leave the table",
    pot: "Pot", sidePot: "Side pot", carried: "Parol pot", yourTurn: "Your turn",
    markHint: "Click the cards to change.", waiting: "Waiting for the next hand…",
    handStarts: (n) => `Hand #${n}`, you: "You", empty: "empty",
    noTables: "No free table for this game.", connecting: "Connecting…",
    offline: "Connection lost: reconnecting…",
    tooManyConnections: "Too many connections open for this account: close another tab of the room. Reconnecting…",
    refused: "The room refused the connection: reload the page.",
    "italian-classic": "Poker all'italiana (classic)", "italian-32": "Poker all'italiana (32 cards)",
    holdem: "Texas Hold'em No-Limit", amount: "Amount", min: "Min", halfPot: "½ pot",
    potBet: "Pot", allIn: "All-in", confirmFold: "Checking is free: fold anyway?",
    seconds: (s) => `${s} s`, bank: (s) => `+${s} s bank`, error: "Error",
    raiseWindow: (s) => `Raise within ${s} s`,
    privateTables: "Private tables", myHands: "My hands", rulesPage: "Rules",
    preActions: "Before my turn:", callAny: "Call any", carriedDead: "Carried pot",
    reshuffled: "The discards are reshuffled into a new stock",
    sound: "Turn sound", turnsElsewhere: "Your turn at:",
    soundWhy: "A sound when it is your turn at a table you are not looking at",
    waitingList: "Waiting list", leaveList: (n) => `Leave the list (#${n})`,
    seatKept: (name) => `A seat is yours at ${name}:`, sitKept: "Sit: the seat is yours",
    waitingAt: (name, n) => `Every table is full: you are on the waiting list of ${name} (#${n}). The first seat that frees is kept for you: we say so up here.`,
  },
};

// The room's refusals in Italian, by their code (REST: `{"error": {"code", "message"}}`, the
// WebSocket: an `error` message with `code` and `of`, the type of the message refused).  An
// English page shows the room's own sentence, which names the details; a code missing here
// falls back to it too.  server/errors.py, server/protocol.py (ErrorCode) and docs/protocol.md
// list the codes.
const ERRORS_IT = {
  // accounts and sessions
  csrf: "La sessione è cambiata: ricarica la pagina.",
  not_logged_in: "Accedi, o entra come ospite.",
  unauthenticated: "Accedi, o entra come ospite.",
  unreachable: "La sala non risponde: riprova tra un momento.",
  session_ended: "La sessione è finita (una nuova password, l'account sospeso o scaduta): accedi di nuovo.",
  no_password: "Un ospite non ha ancora una password: registrati prima.",
  bad_name: "Un nome ha da 3 a 20 lettere, cifre, _ . o -, comincia con una lettera e non con guest-.",
  bad_password: "La password ha da 8 a 200 caratteri.",
  already_logged_in: "Esci prima di entrare con un altro account.",
  name_taken: "Questo nome è già preso.",
  bad_credentials: "Nome o password sbagliati.",
  account_suspended: "Questo account è sospeso dalla sala.",
  no_such_player: "Nessun giocatore ha questo nome.",
  bad_report: "Di' perché segnali il giocatore (e non puoi segnalare te stesso).",
  already_reported: "Hai già segnalato questo giocatore nell'ultima ora.",
  not_a_guest: "Questo account ha già un nome.",
  top_up_taken: "La ricarica di oggi è già stata presa: torna domani.",
  rate_limited: "Troppe richieste: aspetta un momento e riprova.",
  too_many_accounts: "Troppi nuovi account da questo indirizzo: accedi, o riprova più tardi.",
  // tables and private tables
  no_such_table: "Tavolo non trovato.",
  no_table: "Tavolo non trovato.",
  table_closed: "Il tavolo è chiuso.",
  not_the_host: "Solo l'host del tavolo può farlo.",
  bad_table: "Un tavolo così non si può creare: controlla poste, posti, buy-in e tempi.",
  bad_stakes: "Poste non valide per questo gioco.",
  no_such_invite: "Questo codice d'invito non apre nessun tavolo.",
  you_are_the_host: "L'host non ha bisogno di approvazione.",
  bad_buy_in: "Il buy-in è fuori dai limiti del tavolo.",
  already_asked: "Hai già chiesto di sederti a questo tavolo.",
  no_such_request: "Richiesta non trovata.",
  already_decided: "La richiesta è già stata decisa.",
  not_approved: "L'host non ti ha ancora accettato a questo tavolo.",
  not_open: "Il tavolo è già in pausa.",
  not_paused: "Il tavolo non è in pausa.",
  table_not_running: "Il tavolo non è in funzione.",
  players_seated: "Il tavolo si chiude quando tutti i giocatori se ne sono andati.",
  hand_playing: "Si sta giocando una mano: il tavolo si chiude quando è finita.",
  pot_carried: "Il piatto in mezzo non risulta di nessuno: il tavolo resta aperto.",
  not_running: "I tavoli non sono aperti.",
  not_at_the_table: "Solo l'host e chi ha giocato vedono i conti.",
  already_seated: "Sei già seduto a questo tavolo.",
  seat_free: "C'è un posto libero: siediti.",
  already_waiting: "Sei già in lista d'attesa.",
  not_waiting: "Non sei in lista d'attesa.",
  waiting_list: "Il posto libero va al primo della lista d'attesa.",
  unknown_rules: "Gioco sconosciuto.",
  // tournaments
  no_such_tournament: "Torneo non trovato.",
  registration_closed: "Le iscrizioni sono chiuse.",
  already_registered: "Sei già iscritto.",
  tournament_full: "Tutti i posti sono presi.",
  insufficient_funds: "Il saldo non basta per il buy-in e la quota.",
  not_registered: "Non sei iscritto.",
  already_started: "Il torneo è cominciato: l'iscrizione non si rimborsa più.",
  bad_tournament: "Un sit & go così non si può creare: controlla giocatori, buy-in, fiches, livelli e pause.",
  not_enough_players: "Per iniziare servono almeno due iscritti.",
  // hands
  no_such_hand: "Mano non trovata tra le tue.",
  hand_not_over: "La mano è ancora in gioco.",
  // at the table (the WebSocket)
  not_seated: "Non sei seduto a questo tavolo.",
  not_your_turn: "Non tocca a te.",
  stale_action: "Quel turno è finito.",
  illegal_action: "Le regole (o il tempo) non lo permettono ora.",
  storage_unavailable: "Il tavolo è fermo finché la sala non riesce a salvare: niente è cambiato, riprova quando riparte.",
  // the page's or the room's fault
  malformed: "Messaggio non valido.",
  unknown_type: "Messaggio non valido.",
  bad_version: "Versione del protocollo non supportata: ricarica la pagina.",
  invalid_input: "Dati non validi.",
  bad_request: "Richiesta non valida.",
  too_large: "Richiesta troppo grande.",
  forbidden: "Non ti è permesso.",
  not_found: "Non trovato.",
  method_not_allowed: "Richiesta non valida.",
  conflict: "Non si può fare ora.",
  internal: "Il server ha avuto un problema: non è cambiato nulla.",
  internal_error: "Il server ha avuto un problema: non è cambiato nulla.",
  history_unreadable: "Il server ha avuto un problema: non è cambiato nulla.",
  history_without_players: "Il server ha avuto un problema: non è cambiato nulla.",
};

// The room's refusals whose numbers the player needs (the seats a game has, the wait before
// the next log-in...), by the room's own sentence: said in Italian with those numbers.
const DETAILS_IT = [
  [/^wrong password$/, () => "Password sbagliata."], // (changing it: the name is known)
  [/tables seat (\d+) to (\d+) players, not (\d+)/, (m) => `Un tavolo di questo gioco ha da ${m[1]} a ${m[2]} posti, non ${m[3]}.`],
  [/buy-in limits must satisfy 0 < min <= max, not (\d+)\.\.\.(\d+)/, (m) => `Il buy-in minimo (${m[1]}) supera il massimo (${m[2]}).`],
  [/uses an invito \(ante\) and no blinds/, () => "Poste non valide: questo gioco ha l'invito, non i bui."],
  [/needs an invito \(ante\) of at least 1/, () => "Poste non valide: l'invito è almeno 1."],
  [/needs a big blind of at least 1/, () => "Poste non valide: il buio più alto è almeno 1."],
  [/the small blind \((\d+)\) exceeds the big blind \((\d+)\)/, (m) => `Poste non valide: il piccolo buio (${m[1]}) supera il grande buio (${m[2]}).`],
  [/the controbuio is twice the buio \(got (\d+)\/(\d+)\)/, (m) => `Poste non valide: il controbuio è il doppio del buio, non ${m[1]}/${m[2]}.`],
  [/has no ante/, () => "Poste non valide: questo gioco non ha ante."],
  [/^the password was changed: log in again$/, () => "La password è stata cambiata: accedi di nuovo."],
  [/^this account is suspended by the room: (.*)$/s, (m) => `Questo account è sospeso dalla sala: ${m[1]}`], // the operator's own words
  [/at most (\d+) reports an hour/, (m) => `Al massimo ${m[1]} segnalazioni all'ora: riprova più tardi.`],
  [/too many failed log-ins: try again in (\d+) s/, (m) => `Troppi accessi sbagliati: riprova tra ${m[1]} s.`],
  [/too many new accounts from this address: try again in (\d+) min/, (m) => `Troppi nuovi account da questo indirizzo: riprova tra ${m[1]} min, o accedi.`],
  [/at most (\d+) connections at once/, (m) => `Al massimo ${m[1]} connessioni aperte insieme: chiudine una.`],
  [/the buy-in and fee \((\d+)\) exceed your balance/, (m) => `Il saldo non basta per il buy-in e la quota (${m[1]}).`],
];

// Refusals whose detail matters even where the room's sentence is not one of those above: the
// Italian sentence, and the room's own words after it.
const WITH_DETAIL = new Set(["bad_table", "bad_stakes", "bad_tournament", "rate_limited"]);

// `refused` is the table's answer to many messages: said by the message refused.
const REFUSED_IT = {
  sit: "Non puoi sederti ora: il tavolo è pieno, il buy-in è fuori dai limiti o il saldo non basta.",
  top_up: "Ricarica rifiutata: il saldo non basta o supera il buy-in massimo.",
  add_bots: "Niente bot: il tavolo non li ammette, non ci sono posti liberi o non sei l'host.",
  remove_bot: "Quel bot non è a questo tavolo, o non sei l'host.",
  answer: "Non c'è nulla a cui rispondere.",
  "": "Il tavolo non lo permette ora.",
};

// The forced bets of a hand's log by their kind; a kind not here is said as the rules name
// it in both languages (invito, ante, buio, controbuio, over, post, straddle).
const FORCED = {
  it: { small_blind: "piccolo buio", big_blind: "grande buio" },
  en: { small_blind: "small blind", big_blind: "big blind" },
};

/**
 * How the words name the actions at this moment of a hand of `rules`: `hand` says whether
 * the cards were dealt (`dealt`) and drawn (`drawn`) and how many opened blind
 * (`blindRaises`); no hand, as before the first.  The context of `Words.action` and `verb`.
 */
export function handContext(rules, hand) {
  const italian = rules !== "holdem";
  return {
    italian,
    blind: italian && hand && !hand.dealt ? hand.blindRaises : null,
    opening: rules === "italian-classic" && Boolean(hand?.dealt) && !hand.drawn && !hand.blindRaises,
    forcedBlinds: rules === "italian-32",
    parole: rules === "italian-32",
  };
}

export function chooseLanguage() {
  const saved = localStorage.getItem("mazziere.lang");
  if (saved === "it" || saved === "en") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("it") ? "it" : "en";
}

export class Words {
  constructor(lang) {
    this.lang = lang;
    this.it = lang === "it";
    this.table = WORDS[lang];
  }

  t(key, ...args) {
    const word = this.table[key];
    return typeof word === "function" ? word(...args) : (word ?? key);
  }

  pick(italian, english) {
    return this.it ? italian : english;
  }

  /**
   * A refusal of the room for the player: by its `code` (and `of`, the message the table
   * refused), with the numbers the room's `text` gives; the room's own `text` in English and
   * for a code not known here.
   */
  error(code, text, of = "") {
    if (!this.it) return text || code;
    if (code === "refused") return REFUSED_IT[of] ?? REFUSED_IT[""];
    for (const [pattern, said] of DETAILS_IT) {
      const match = text && text.match(pattern);
      if (match) return said(match);
    }
    const general = ERRORS_IT[code];
    if (general && text && WITH_DETAIL.has(code)) return `${general} (${text})`;
    return general ?? (text || code);
  }

  /** A table's stakes: the invito, the buio and the controbuio, or Hold'em's blinds ("bui"). */
  stakes(rules, { small_blind: small, big_blind: big, ante }) {
    if (rules === "italian-classic") return `invito ${ante}`;
    if (rules === "italian-32") return `buio ${small}, controbuio ${big}`;
    return `${this.pick("bui", "blinds")} ${small}/${big}${ante ? `, ante ${ante}` : ""}`;
  }

  /** The smallest pair that opens ("J", "Q", "K", "A": the ranks' Italian letters). */
  opening(rank) {
    const names = this.it ? { J: "Jack", Q: "Donne", K: "Re", A: "Assi" } : { J: "Jacks", Q: "Queens", K: "Kings", A: "Aces" };
    return this.pick(`Apertura: ${names[rank] ?? rank} o meglio`, `Opening: ${names[rank] ?? rank} or better`);
  }

  /** A verb for a third person or for the player: conj(me, "vince", "vinci", "wins", "win"). */
  conj(me, it3, it2, en3, en2) {
    return me ? (this.it ? it2 : en2) : this.it ? it3 : en3;
  }

  /** People one after the other, each { name, me } (me: the player): "Anna, Bruno e tu",
   * "Tu e Anna"; "Anna, Bruno and you". */
  names(people) {
    const names = people.map((p, i) => (!p.me ? p.name : i ? this.pick("tu", "you") : this.t("you")));
    if (names.length < 2) return names.join("");
    return `${names.slice(0, -1).join(", ")} ${this.pick("e", "and")} ${names.at(-1)}`;
  }

  /**
   * Who won a pot: `winners` are { name, me } (me: the player, "Tu"/"You"), `amount` what
   * they won: "Anna vince 40", "Tu vinci 40", "Anna e Bruno vincono 40", "Anna e tu
   * vincete 40"; "You win 40", "Anna and you win 40".
   */
  won(winners, amount) {
    const verb = winners.length === 1 ? this.conj(winners[0].me, "vince", "vinci", "wins", "win")
      : winners.some((w) => w.me) ? this.pick("vincete", "win") : this.pick("vincono", "win");
    return `${this.names(winners)} ${verb} ${amount}`;
  }

  /**
   * How a tournament ended for the player (`place`, `prize`; `over`: the tournament is over):
   * "Sei fuori: 3° posto, premio 120", "Torneo finito: hai vinto! Premio 280"; "You finished
   * 3rd, prize 120", "The tournament is over: you won, prize 280".
   */
  finish(place, prize, over) {
    const paid = prize ? this.pick(`premio ${prize}`, `prize ${prize}`) : this.pick("nessun premio", "no prize");
    if (place === 1) return this.pick(`Torneo finito: hai vinto! Premio ${prize}`, `The tournament is over: you won, prize ${prize}`);
    const th = { 1: "st", 2: "nd", 3: "rd" }[place % 100 > 10 && place % 100 < 14 ? 0 : place % 10] ?? "th";
    const where = this.pick(`${place}° posto, ${paid}`, `you finished ${place}${th}, ${paid}`);
    if (over) return this.pick(`Torneo finito: ${where}`, `The tournament is over: ${where}`);
    return this.pick(`Sei fuori: ${where}`, `Y${where.slice(1)}`);
  }

  /** The end of a tournament a spectator watched: "Torneo finito: vince Anna, premio 280";
   * "The tournament is over: Anna won, prize 280". */
  finishWatched(winner, prize) {
    const paid = prize ? this.pick(`, premio ${prize}`, `, prize ${prize}`) : "";
    return this.pick(`Torneo finito: vince ${winner}${paid}`, `The tournament is over: ${winner} won${paid}`);
  }

  /** A pot won and, shared, each winner's part once: "Anna e Bruno vincono 40, 20 a testa",
   * "Anna e tu vincete 41 (Anna 21, tu 20)"; "Anna and Bruno win 40, 20 each". */
  wonShares(winners, amount, shares) {
    const won = this.won(winners, amount);
    if (winners.length < 2 || !shares) return won;
    if (shares.every((share) => share === shares[0])) return `${won}, ${shares[0]} ${this.pick("a testa", "each")}`;
    return `${won} (${winners.map((w, i) => `${w.me ? this.pick("tu", "you") : w.name} ${shares[i]}`).join(", ")})`;
  }

  /** A forced bet of the log: "Tu: piccolo buio 3", "Anna: invito 10". */
  forcedBet(who, kind, amount, context) {
    let name = FORCED[this.lang][kind] ?? kind.replace("_", " ");
    // Dead chips: a parol pot's adeguamento (italian-classic), a missed blind's dead part.
    if (kind === "dead") name = context.italian && !context.forcedBlinds ? "adeguamento" : this.pick("morti", "dead");
    return `${who}: ${name} ${amount}`;
  }

  /** A player's draw: "Tu cambi 2 carte", "Anna è servito"; "You draw 2", "Anna stands pat". */
  drew(who, me, count) {
    if (!count) return `${who} ${this.conj(me, "è servito", "sei servito", "stands pat", "stand pat")}`;
    return `${who} ${this.conj(me, "cambia", "cambi", "draws", "draw")} ${count}${this.pick(count === 1 ? " carta" : " carte", "")}`;
  }

  /** Cards shown ("Tu mostri A♥ K♥"), or not ("Anna non mostra"). */
  shows(who, me, cards) {
    return `${who} ${this.conj(me, "mostra", "mostri", "shows", "show")} ${cards}`;
  }

  mucks(who, me) {
    return `${who} ${this.conj(me, "non mostra", "non mostri", "mucks", "muck")}`;
  }

  /** A pot carried to the next hand: a parol pot, or one nobody opened. */
  carried(amount, parol) {
    return parol
      ? this.pick(`Parol: il piatto di ${amount} passa alla mano successiva`, `Parol: the pot of ${amount} is carried to the next hand`)
      : this.pick(`Nessuno apre: il piatto di ${amount} passa alla mano successiva`, `Nobody opens: the pot of ${amount} is carried to the next hand`);
  }

  /** A pre-action's "check, or fold if anyone bets": where the check is "Passo" (the blind
   * and opening rounds of the Italian game), the fold is "Esco", as on the action bar. */
  checkOrFold(context) {
    const passing = (context.blind !== null && context.blind !== undefined) || (context.italian && context.opening);
    const fold = passing ? this.pick("Esco", "Fold") : this.action("fold", context, { to_call: 1 });
    return `${this.action("check", context, { to_call: 0 })} / ${fold}`;
  }

  /**
   * The label of an action button.  `context`: { italian, opening (the opening round of
   * italian-classic), blind (before the deal: 0 buio, 1 controbuio, 2 over), forcedBlinds
   * (italian-32), parole (italian-32 splits the pot) }.
   */
  action(kind, context, legal, { amount, discards = 0 } = {}) {
    if (kind === "draw") {
      if (!discards) return this.pick("Servito", "Stand pat");
      if (discards === 1) return this.pick("Cambio 1 carta", "Change 1 card");
      return this.pick(`Cambio ${discards} carte`, `Change ${discards} cards`);
    }
    if (context.blind !== null && context.blind !== undefined) {
      const name = ["Buio", "Controbuio", "Over"][Math.min(context.blind, 2)];
      if (kind === "check") return this.pick("Passo", "Pass");
      if (kind === "bet" || kind === "raise") return `${name} ${legal.min_to}`;
    }
    if (kind === "fold") {
      if (context.italian && context.opening && !legal.to_call) return this.pick("Esco", "Fold");
      return this.pick("Passo", "Fold");
    }
    if (kind === "check") {
      if (context.italian && context.opening) return this.pick("Passo", "Pass");
      if (context.italian && context.forcedBlinds) return this.pick("Cip", "Check");
      return this.pick("Busso", "Check");
    }
    if (kind === "call") return `${this.pick("Vedo", "Call")} ${legal.to_call}`;
    const shown = amount ?? legal.min_to;
    if (kind === "bet") {
      if (context.italian && context.opening) return `${this.pick("Apri", "Open")} ${shown}`;
      return `${this.pick("Punto", "Bet")} ${shown}`;
    }
    if (kind === "raise") return `${this.pick("Rilancio a", "Raise to")} ${shown}`;
    if (kind === "all-in") return legal.max_to ? `All-in ${legal.max_to}` : "All-in";
    if (kind === "parol") return context.parole ? "Parole" : "Parol";
    if (kind === "show") return this.pick("Mostro", "Show");
    if (kind === "muck") return this.pick("Non mostro", "Muck");
    return kind;
  }

  /** A record of the hand in words; `who` is the player's name (or "Tu"/"You"). */
  verb(kind, who, me, amount, context) {
    const v = (it3, it2, en3, en2) => this.conj(me, it3, it2, en3, en2);
    switch (kind) {
      case "fold": return `${who} ${v("passa", "passi", "folds", "fold")}`;
      case "check":
        if (context.blind !== null && context.blind !== undefined)
          return `${who} ${v("non apre al buio", "non apri al buio", "does not open blind", "do not open blind")}`;
        if (context.italian && context.opening) return `${who} ${v("passa la parola", "passi la parola", "passes", "pass")}`;
        // Italian-32's check is "cip", as its button says.
        if (context.italian && context.forcedBlinds) return `${who} ${v("dice cip", "dici cip", "checks", "check")}`;
        return `${who} ${v("bussa", "bussi", "checks", "check")}`;
      case "call": return `${who} ${v("vede", "vedi", "calls", "call")} ${amount}`;
      case "bet":
        if (context.blind !== null && context.blind !== undefined)
          return `${who} ${v("apre al buio con", "apri al buio con", "opens blind for", "open blind for")} ${amount}`;
        if (context.italian && context.opening) return `${who} ${v("apre con", "apri con", "opens for", "open for")} ${amount}`;
        return `${who} ${v("punta", "punti", "bets", "bet")} ${amount}`;
      case "raise": return `${who} ${v("rilancia a", "rilanci a", "raises to", "raise to")} ${amount}`;
      case "all-in": return `${who} ${v("va all-in con", "vai all-in con", "goes all-in for", "go all-in for")} ${amount}`;
      case "parol": return `${who} ${v("dice", "dici", "says", "say")} ${context.parole ? "parole" : "parol"}`;
      default: return `${who}: ${kind} ${amount ?? ""}`;
    }
  }
}
