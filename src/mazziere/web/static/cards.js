// Playing cards drawn as SVG: rank and suit in a corner and a large pip in the middle.
const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const TWO_COLOURS = { s: "#111", h: "#c8102e", d: "#c8102e", c: "#111" };
// The four-colour deck of online rooms: spades black, hearts red, diamonds blue, clubs green.
const FOUR_COLOURS = { s: "#111", h: "#c8102e", d: "#1f5fd0", c: "#168a2e" };
const RANKS = { T: "10" };

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, text) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An SVG card for "Ah", "Tc"...; "??" or null draws its back. */
export function cardSvg(code, { fourColours = false, label } = {}) {
  const svg = el("svg", { viewBox: "0 0 50 70", class: "card", role: "img" });
  svg.appendChild(el("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#fff", stroke: "#333" }));
  if (!code || code === "??") {
    svg.setAttribute("aria-label", label || "?");
    svg.appendChild(el("rect", { x: 5, y: 5, width: 40, height: 60, rx: 3, fill: "#8b1a1a" }));
    svg.appendChild(el("path", { d: "M5 5 L45 65 M45 5 L5 65", stroke: "#d4a017", "stroke-width": 1.5 }));
    return svg;
  }
  const rank = code[0], suit = code[1];
  const colour = (fourColours ? FOUR_COLOURS : TWO_COLOURS)[suit];
  svg.setAttribute("aria-label", label || code);
  svg.dataset.card = code;
  const corner = { fill: colour, "font-family": "sans-serif", "font-weight": "bold" };
  svg.appendChild(el("text", { ...corner, x: 5, y: 17, "font-size": 15 }, RANKS[rank] || rank));
  svg.appendChild(el("text", { ...corner, x: 5, y: 31, "font-size": 13 }, SUITS[suit]));
  svg.appendChild(el("text", { ...corner, x: 30, y: 58, "font-size": 28, "text-anchor": "middle" }, SUITS[suit]));
  return svg;
}

/** "Ah" as the log writes it: A♥. */
export function cardText(code) {
  if (!code || code === "??") return "?";
  return (RANKS[code[0]] || code[0]) + SUITS[code[1]];
}
