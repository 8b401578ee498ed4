// Pre-actions: what a player chooses before their turn, played the moment the turn comes.
//
// The choice only picks among the legal actions the room sends with the turn; when none
// fits, nothing is played and the player decides as usual.  As in a real room, a choice
// that named the bet it answered ("check", "call 40") is cleared when the bet changes;
// "check/fold", "fold" and "call any" stand until the betting round ends.

/** The pre-actions offered to a player facing `toCall` (0: nothing to call). */
export function offeredPreActions(toCall) {
  return toCall > 0 ? ["fold", "call", "call-any"] : ["check-fold", "check", "call-any"];
}

/** Whether `choice` ({kind, amount}) still holds now that the player faces `toCall`. */
export function preActionHolds(choice, toCall) {
  if (!choice) return false;
  if (choice.kind === "check") return toCall === 0;
  if (choice.kind === "call") return toCall === choice.amount;
  return true;
}

/**
 * The action to play for `choice` at a turn whose legal actions are `legal`
 * ({kinds, to_call, ...}), or null when none of them fits.
 *
 * "fold" and "check/fold" check when checking is free (nobody folds a free hand
 * without being asked); "call any" checks when there is nothing to call, and calls
 * all-in when all-in is the only way to call.
 */
export function preActionMove(choice, legal) {
  if (!choice || !legal) return null;
  const kinds = legal.kinds;
  const has = (kind) => kinds.includes(kind);
  const toCall = legal.to_call || 0;
  switch (choice.kind) {
    case "fold":
    case "check-fold":
      if (has("check")) return "check";
      return has("fold") && toCall > 0 ? "fold" : null;
    case "check":
      return has("check") ? "check" : null;
    case "call":
      return has("call") && toCall <= choice.amount ? "call" : null;
    case "call-any":
      if (has("call")) return "call";
      if (has("check")) return "check";
      return has("all-in") && toCall > 0 ? "all-in" : null;
    default:
      return null;
  }
}
