import type { Db } from 'mongodb';

// What crosses RPC for the named jobs the gateway object runs (worker/platform/db/gateway-queries.ts).

/** A job as the gateway object runs it: by name, over its held Db; its answer crosses RPC as it is. */
export type HeldQuery = (db: Db, args: unknown) => Promise<unknown>;

/** Named jobs to run side by side on the client for `uri`, in database `db` (as a GatewayRequest names them). */
export interface QueriesRequest {
  uri: string;
  db: string;
  poolSize: number;
  calls: { name: string; args: unknown }[];
}

/** One job's answer, or its error as db-gateway-codec.ts encodes it, with the milliseconds it took. */
export type QueriesReply = ({ ok: unknown } | { error: Uint8Array }) & { ms: number };
