// How well each sandbox account is kept. A real estate is not uniformly neglected: most of the accounts a team
// watches are kept well, carrying a few old issues; some have lapsed; a few are neglected. Every breadth issue of
// the sandbox (a public Lambda URL, an unencrypted stream, a guardrail without filters...) is drawn at its own odds
// for a neglected account times the account's neglect, so a kept account fails a handful of the catalog's checks
// and a neglected one fails dozens. The demo then shows scores across the range (one score moves when a finding is
// accepted), and the sandbox as a whole still fails every check somewhere.

/** The multiplier on an issue's odds, by upkeep. */
export const NEGLECT = { kept: 0.02, lapsed: 0.1, neglected: 1 } as const;

/** An account's neglect, from a draw in [0, 1) of its own stream: half kept, a third lapsed, the rest neglected. */
export function neglectOf(draw: number): number {
  return draw < 0.5 ? NEGLECT.kept : draw < 0.83 ? NEGLECT.lapsed : NEGLECT.neglected;
}
