/** How the pages write times and numbers: UTC, as the API and the daily caps count days. */
export const dateTime = (iso: string | null | undefined) => (iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : '—');

export const credits = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** "1 signal", "4 signals": people read words, not "signal(s)". */
export const counted = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}s`}`;
