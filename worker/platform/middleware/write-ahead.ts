import {
  type CarriedDocuments,
  carryDocuments,
  documentsOf,
  type GatewayQuery,
  gatewayQuery,
  runQueries,
} from '../db/gateway-queries';
import { type AccountReader, acceptedCaller, type CallerAccount, findCallerAccount } from '../tokens/service';
import type { TokenClaims, VerifiedToken } from '../tokens/token';
import { admitCaller, callerRefusal } from './admit-caller';
import type { AheadContext, CheckAhead } from './read-ahead';

/** What the gateway object needs to judge the caller as the access check does, and the write to run if it admits. */
type Guarded<A> = { verified: VerifiedToken; method: string; path: string; now: Date; args: A };
/** The caller's account as the check reads it (null: refused), and the write's answer when it ran. */
type GuardedWire<W> = { account: CarriedDocuments; written?: { wire: W } };
type GuardedAnswer<R> = { caller: CallerAccount | null; written?: { outcome: R } };

/**
 * A route's write, sent by `auth({ ahead })` in the caller's account read's own call and run there, after the read,
 * only when the account admits the caller exactly as the check does (acceptedCaller, then admitCaller at the check's
 * instant): a refused caller writes nothing, and the check then answers its refusal as ever. `argsOf` answers
 * undefined for any request the route's validation would refuse (worker/platform/http/validated-ahead.ts), so a
 * write never precedes a 400; the handler takes the outcome for the arguments it validated, or writes itself when
 * there is none. The job is listed with the others where the Worker is composed (worker/index.ts).
 */
export class WriteAhead<A, W, R> implements CheckAhead {
  private readonly outcomes = new WeakMap<Request, { args: A; outcome: R }>();
  readonly job: GatewayQuery<Guarded<A>, GuardedWire<W>, GuardedAnswer<R>>;

  constructor(
    name: string,
    /** The write's arguments from the request, once validation would accept it; else undefined to send none. */
    readonly argsOf: (c: AheadContext, claims: TokenClaims) => Promise<A | undefined>,
    write: GatewayQuery<A, W, R>,
    /** The accounts domain's reader, which the object reads the account with: the one the app hands the checks. */
    readAccount: AccountReader,
  ) {
    this.job = gatewayQuery(
      name,
      false,
      async (store, { verified, method, path, now, args }: Guarded<A>): Promise<GuardedWire<W>> => {
        // The account as the check reads it (acceptedCaller), crossing as it is: the Worker judges it, reads it once.
        const caller = acceptedCaller(await findCallerAccount(store, verified.claims._id), verified, readAccount);
        const account = carryDocuments(caller);
        if (callerRefusal(caller, { method, path }, now)) return { account };
        return { account, written: { wire: await write.run(store, args) } };
      },
      ({ account, written }): GuardedAnswer<R> => ({
        caller: documentsOf<CallerAccount | null>(account),
        ...(written ? { written: { outcome: write.read(written.wire) } } : {}),
      }),
    );
  }

  async checkWith(c: AheadContext, verified: VerifiedToken): Promise<CallerAccount | undefined> {
    const args = await this.argsOf(c, verified.claims);
    if (args === undefined) return undefined;
    const now = new Date();
    const [{ caller, written }] = await runQueries(c.var.db, [
      this.job.with({ verified, method: c.req.method, path: c.req.path, now, args }),
    ]);
    const admitted = admitCaller(caller, c.req, now);
    if (written) this.outcomes.set(c.req.raw, { args, outcome: written.outcome });
    return admitted;
  }

  /**
   * The write's arguments and outcome when it ran for this request with arguments the handler `matches` (those it
   * validated); else undefined. Taken once.
   */
  take(request: Request, matches: (args: A) => boolean): { args: A; outcome: R } | undefined {
    const kept = this.outcomes.get(request);
    this.outcomes.delete(request);
    return kept && matches(kept.args) ? kept : undefined;
  }
}
