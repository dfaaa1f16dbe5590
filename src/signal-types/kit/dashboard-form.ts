/**
 * A type's dashboard form as data: which config fields it shows, with which of the dashboard's
 * inputs. The dashboard renders them and turns the submitted form into the REST body, so a
 * type module never builds markup.
 */
export type DashboardFormField =
  /** Several persona names (a multiple select from the persona catalogue). */
  | { input: 'personas'; name: string; label: string }
  /** Company size bands as checkboxes. */
  | { input: 'sizeBands'; name: string; legend: string }
  /** Industries grouped by category (a multiple select). */
  | { input: 'industries'; name: string }
  /**
   * A list, one item per line. `onlyAdds`: the items are added to what is there (the watchlist's
   * companies), so the stored value is never shown and a blank field sends nothing; editing
   * shows `editLabel`.
   */
  | { input: 'lines'; name: string; label: string; hint: string; onlyAdds?: boolean; editLabel?: string }
  | { input: 'number'; name: string; label: string; hint: string; min: number; max: number }
  | { input: 'flag'; name: string; label: string }
  /** The watchlist's event sources, one checkbox each, stored as `{key: {enabled}}`. */
  | { input: 'watchlistSources'; name: string; legend: string };

export interface DashboardForm {
  fields: DashboardFormField[];
}
