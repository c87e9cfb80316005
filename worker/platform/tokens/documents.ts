/** Requests per UTC day that still present a legacy token (no session), for planning their sunset. */
export interface LegacyTokenUsageDoc {
  _id: string;
  requests: number;
}
