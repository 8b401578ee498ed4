// The rules of the three games, in Italian and English, as the rule book (docs/rules.md) states them:
// the hand ranking with pictures of the cards, the deck by number of players, the forced bets,
// the opening ladder and parol.
import { h, words } from "./app.js";
import { cardSvg } from "./cards.js";

const RULES = ["italian-classic", "italian-32", "holdem"];
const say = (it, en) => words.pick(it, en);

// Hands high to low, each with an example (cards as the room writes them).
const ITALIAN_RANKING = [
  ["Scala reale", "Straight flush", "9h Th Jh Qh Kh"],
  ["Poker", "Four of a kind", "As Ah Ad Ac Ks"],
  ["Colore", "Flush", "Kh Qh Jh 9h 7h"],
  ["Full", "Full house", "Ac As Ad Kc Ks"],
  ["Scala", "Straight", "Td Jc Qh Ks Ad"],
  ["Tris", "Three of a kind", "Qc Qd Qh 9s 7d"],
  ["Doppia coppia", "Two pair", "Kh Kd Jc Js 9s"],
  ["Coppia", "Pair", "Jh Jd Ac 9s 8s"],
  ["Carta alta", "High card", "Ah Kc Td 8s 7c"],
];

const HOLDEM_RANKING = [
  ["Scala reale", "Straight flush", "As Ks Qs Js Ts"],
  ["Poker", "Four of a kind", "9c 9d 9h 9s Kd"],
  ["Full", "Full house", "Qh Qd Qs 4c 4d"],
  ["Colore", "Flush", "Ah Jh 8h 6h 2h"],
  ["Scala", "Straight", "5d 4c 3h 2s Ad"],
  ["Tris", "Three of a kind", "7c 7d 7s Kh 2d"],
  ["Doppia coppia", "Two pair", "Jh Jc 4s 4d Ac"],
  ["Coppia", "Pair", "Th Td Ks 8c 3d"],
  ["Carta alta", "High card", "Ah Qc 9d 6s 3c"],
];

// italian-classic: the deck goes from the ace down to rank 11 - n, n players dealt in.
const CLASSIC_DECKS = [[2, "9", 24], [3, "8", 28], [4, "7", 32], [5, "6", 36], [6, "5", 40]];

function cards(text) {
  return h("span", { class: "cards", role: "img", "aria-label": text }, text.split(" ").map((c) => cardSvg(c)));
}

function ranking(list) {
  return h("ol", { class: "ranking" }, list.map(([it, en, example]) =>
    h("li", {}, h("span", { class: "hand-name" }, say(it, en)), cards(example))));
}

function list(items) {
  return h("ul", {}, items.map((item) => h("li", {}, item)));
}

function italianCommon() {
  return [
    h("h3", {}, say("Semi e valori", "Suits and ranks")),
    h("p", {}, say("Cinque carte a testa, nessuna carta comune, un solo cambio fino a quattro carte, due giri di puntate.",
      "Five cards each, no community cards, one draw of up to four cards, two betting rounds.")),
    h("p", {}, say("Ordine dei semi: ♥ cuori > ♦ quadri > ♣ fiori > ♠ picche («Come Quando Fuori Piove»). Valori: A K Q J 10 9 8 7…, fino al valore più basso del mazzo.",
      "Suit order: ♥ hearts > ♦ diamonds > ♣ clubs > ♠ spades (\"Come Quando Fuori Piove\"). Ranks: A K Q J 10 9 8 7…, down to the deck's lowest rank.")),
    h("h3", {}, say("Le combinazioni, dalla più alta", "Hands, highest first")),
    h("p", {}, say("Il colore batte il full.", "The flush beats the full house.")),
    ranking(ITALIAN_RANKING),
    list([
      say("Scala: cinque valori in fila. L'asso vale alto (10-J-Q-K-A, «massima») o sotto il valore più basso del mazzo (A-7-8-9-10 con 32 carte, «minima»): la minima è la scala più bassa e la sua carta più alta è il 10. Niente giro (K-A-7…).",
        "Straight: five ranks in sequence. The ace plays high (10-J-Q-K-A, \"massima\") or below the deck's lowest rank (A-7-8-9-10 with 32 cards, \"minima\"): the minima is the lowest straight and its top card is the 10. No wrap-around (K-A-7…)."),
      say("A parità decidono sempre i semi, quindi due mani diverse non sono mai pari: carta alta, coppia e doppia coppia confrontano i valori, poi il seme della carta più alta fuori dalle coppie; la scala confronta la carta più alta, poi il suo seme.",
        "Ties are always broken by suits, so two different hands never tie: high card, pair and two pair compare the ranks, then the suit of the highest kicker; a straight compares its top card, then that card's suit."),
    ]),
  ];
}

function classic() {
  return [
    h("h3", {}, say("Il mazzo secondo i giocatori", "The deck by number of players")),
    h("p", {}, say("Da 2 a 6 giocatori. Il mazzo va dall'asso in giù fino a 11 − n, con n i giocatori serviti nella mano.",
      "2 to 6 players. The deck goes from the ace down to 11 − n, n being the players dealt into the hand.")),
    h("table", { class: "decks" },
      h("thead", {}, h("tr", {}, [say("Giocatori", "Players"), say("Dal", "From"), say("Carte", "Cards")].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, CLASSIC_DECKS.map(([n, low, size]) => h("tr", {}, h("td", {}, n), h("td", {}, `${low} – A`), h("td", {}, size))))),
    ...italianCommon(),
    list([
      say("Colore: conta prima il seme, poi i valori: K♥Q♥10♥9♥8♥ batte A♠K♠J♠9♠8♠.",
        "Flush: the suit counts first, then the ranks: K♥Q♥10♥9♥8♥ beats A♠K♠J♠9♠8♠."),
      say("Scala reale: la minima batte la massima («la scala minima di picche è superiore alla massima di cuori»); per il resto conta la carta più alta, poi il seme.",
        "Straight flush: the minima beats the massima (\"the spade minima beats the heart massima\"); otherwise the top card, then its suit."),
    ]),
    h("h3", {}, say("Invito e apertura al buio", "The invito and the blind opening")),
    list([
      say("Ogni giocatore mette l'invito (al tavolo cash si può metterlo in automatico o saltare la mano).",
        "Every player posts the invito (at a cash table it can be posted automatically, or the player sits the hand out)."),
      say("Solo nelle mani con apertura minima di Jack e prima della distribuzione, il giocatore a sinistra del mazziere può aprire al buio mettendo quanto il piatto (buio); il successivo può rilanciare al buio col doppio (controbuio), il successivo ancora col doppio (over).",
        "Only in hands whose opening minimum is Jacks, and before the deal, the player left of the dealer may open blind for the pot (buio); the next may raise blind with double that (controbuio), the next with double again (over)."),
    ]),
    h("h3", {}, say("La scala delle aperture", "The opening ladder")),
    list([
      say("Dopo la distribuzione si apre (Apri) o si passa la parola (Passo, che qui non è uscire). Per aprire serve almeno una coppia del minimo di questa mano, o una combinazione più alta, o un progetto di scala reale bilaterale (quattro carte in fila dello stesso seme completabili ai due lati, senza asso), che apre sempre.",
        "After the deal a player opens (Apri) or passes the word (Passo, which here is not a fold). Opening needs at least a pair of this hand's minimum, or a higher hand, or a two-sided straight-flush draw (four suited cards in a row that can be completed at both ends, no ace), which always opens."),
      say("Se nessuno apre la mano è morta: il piatto resta, si rimette l'invito e il minimo sale: Jack → Donne → Re (\"re e assi\"); resta ai Re finché il piatto non è vinto, poi torna ai Jack.",
        "If nobody opens the hand is dead: the pot stays, a new invito is posted and the minimum rises: Jacks → Queens → Kings (\"kings and aces\"); it stays at Kings until the pot is won, then goes back to Jacks."),
      h("span", {}, say("Esempi con 4 giocatori: ", "Examples with 4 players: "), cards("Jh Jd 9c 8s 7s"),
        say(" apre ai Jack, non alle Donne; ", " opens at Jacks, not at Queens; "), cards("8h 9h Th Jh Ks"), say(" apre sempre.", " always opens.")),
    ]),
    h("h3", {}, say("Il cambio e l'ultimo giro", "The draw and the last round")),
    list([
      say("Ognuno ancora in gioco cambia da 0 a 4 carte («Cambio») o resta servito («Servito»).",
        "Everyone still in changes 0 to 4 cards (\"Cambio\") or stands pat (\"Servito\")."),
      say("Nell'ultimo giro: Passo (esco), Busso (check), Parol, Punto, Rilancio, Vedo.",
        "In the last round: Passo (fold), Busso (check), Parol, Punto (bet), Rilancio (raise), Vedo (call)."),
    ]),
    h("h3", {}, "Parol"),
    list([
      say("Parol è un «busso» che vale solo se lo dicono tutti i giocatori ancora in gioco: allora il piatto non si assegna e diventa il piatto del parol della mano successiva. Un busso o una puntata di chiunque lo annulla. Non si può dire parol con piatti laterali o giocatori all-in.",
        "Parol is a check that counts only if every player still in says it: then the pot is not awarded and becomes the parol pot of the next hand. A check or a bet by anyone cancels it. Parol is not allowed with side pots or all-in players."),
      say("Alla mano del piatto del parol partecipano solo i giocatori che vi hanno contribuito; chi c'era all'inizio ma non è rimasto fino alla fine adegua la sua parte o salta la mano. Apertura minima: Re (o il progetto bilaterale); puntata minima d'apertura: il piatto; niente apertura al buio.",
        "Only the players who paid into the parol pot play its hand; those present at its start who did not stay to the end match each parol player's share or sit the hand out. Minimum opening: Kings (or the two-sided draw); minimum opening bet: the pot; no blind opening."),
    ]),
  ];
}

function thirtyTwo() {
  return [
    h("h3", {}, say("Il mazzo", "The deck")),
    h("p", {}, say("Da 2 a 5 giocatori, sempre 32 carte (dal 7 all'asso). A-7-8-9-10 è la scala minima.",
      "2 to 5 players, always 32 cards (7 to the ace). A-7-8-9-10 is the minima.")),
    ...italianCommon(),
    list([
      say("Colore: contano prima i valori, poi il seme della carta più alta. Scala reale: la carta più alta, poi il seme (nessuna eccezione per la minima).",
        "Flush: the ranks count first, then the suit of the highest card. Straight flush: the top card, then the suit (no minima exception)."),
    ]),
    h("h3", {}, say("Bui obbligatori", "Forced bets")),
    list([
      say("Prima della distribuzione: buio (a sinistra del mazziere) = metà della puntata minima del tavolo; controbuio (il successivo) = il doppio del buio; con più di 3 giocatori l'over (il successivo) = il doppio del controbuio.",
        "Before the deal: buio (left of the dealer) = half the table's minimum bet; controbuio (next) = twice the buio; with more than 3 players the over (next) = twice the controbuio."),
      say("Nessun requisito per aprire. «Cip» è il check di chi ha già la puntata più alta quando il turno torna a lui.",
        "No opening requirement. \"Cip\" is the check of the player whose bet is already the highest when the turn comes back."),
    ]),
    h("h3", {}, say("Il cambio", "The draw")),
    h("p", {}, say("Fino a quattro carte, a partire dalla sinistra del mazziere, date tutte insieme.",
      "Up to four cards, from the left of the dealer, all dealt at once.")),
    h("h3", {}, "Parole"),
    h("p", {}, say("Nel secondo giro il primo a parlare può dire «parole»; se lo dicono anche tutti i successivi, il piatto si divide tra loro (la fiche dispari a un vincitore a caso). Una puntata lo annulla e il giro continua.",
      "In the second round the first to speak may say \"parole\"; if every following player says it too, the pot is split among them (an odd chip to a random winner). A bet cancels it and the round goes on.")),
  ];
}

function holdem() {
  return [
    h("h3", {}, say("Il mazzo e i bui", "The deck and the blinds")),
    list([
      say("52 carte. Prima della distribuzione: eventuali ante, poi piccolo buio (a sinistra del bottone) e grande buio (il successivo). In due, il bottone mette il piccolo buio.",
        "52 cards. Before the deal: antes where the table has them, then the small blind (left of the button) and the big blind (next). Heads-up, the button posts the small blind."),
      say("Due carte coperte a testa; poi il flop (3 carte), il turn (1) e il river (1), ognuno dopo una carta bruciata.",
        "Two hole cards each; then the flop (3 cards), the turn (1) and the river (1), each after a burned card."),
      say("Azioni: passare, check (se non c'è nulla da pagare), puntare (almeno il grande buio, al massimo tutto lo stack), chiamare, rilanciare.",
        "Actions: fold, check (with nothing to call), bet (at least the big blind, at most the whole stack), call, raise."),
    ]),
    h("h3", {}, say("Le combinazioni, dalla più alta", "Hands, highest first")),
    h("p", {}, say("Le migliori cinque delle sette carte. A-2-3-4-5 è la scala più bassa. I semi non contano: mani uguali si dividono il piatto.",
      "The best five of seven cards. A-2-3-4-5 is the lowest straight. Suits never break ties: equal hands split the pot.")),
    ranking(HOLDEM_RANKING),
  ];
}

/** The rules page of one rule set, with a switch to the others. */
export function rulesPage(rules, page) {
  return page(() => [
    h("h2", {}, `${say("Regole", "Rules")}: ${words.t(rules)}`),
    h("nav", { class: "filters", "aria-label": say("Giochi", "Games") }, RULES.map((r) =>
      h("a", { href: `#rules/${r}`, class: "rules-link", "aria-current": r === rules ? "page" : null }, words.t(r)))),
    h("article", { class: "rules", "data-rules": rules }, rules === "holdem" ? holdem() : rules === "italian-32" ? thirtyTwo() : classic()),
  ]);
}
