import type { HonoRequest } from 'hono';
import type { GatewayQuery } from '../db/gateway-queries';
import { type CallerAccount, readAccountWith } from '../tokens/service';
import type { TokenClaims, VerifiedToken } from '../tokens/token';
import { admitCaller, type CheckVariables } from './admit-caller';

/** What an access check hands the work it sends ahead: the request, its store and the reader of an account. */
export interface AheadContext {
  req: HonoRequest;
  var: CheckVariables;
}

/**
 * Work a route sends with the access check's account read, in one call to the database gateway: `checkWith`
 * reads the caller's account with it and judges it as the check does (admitCaller, which throws the check's
 * refusals), or answers undefined having sent nothing, and the check reads the account alone.
 */
export interface CheckAhead {
  checkWith(c: AheadContext, verified: VerifiedToken): Promise<CallerAccount | undefined>;
}

/**
 * A route's first read, sent by `auth({ ahead })` beside the caller's account read, from the path as it came (before
 * validation, which still runs after the check). The handler takes the answer for the arguments it validated, or
 * reads again when there is none (no such read was sent, or other arguments): a refusal by the check answers as
 * before, and the read-ahead never stands in for validation.
 */
export class ReadAhead<A, R> implements CheckAhead {
  private readonly answers = new WeakMap<Request, { args: A; answer: R }>();

  constructor(
    /** The read's arguments from the raw path params and the verified claims, or undefined to send none. */
    readonly argsOf: (params: Record<string, string>, claims: TokenClaims) => A | undefined,
    readonly query: GatewayQuery<A, unknown, R>,
  ) {}

  async checkWith(c: AheadContext, verified: VerifiedToken): Promise<CallerAccount | undefined> {
    const args = this.argsOf(c.req.param(), verified.claims);
    if (args === undefined) return undefined;
    const [account, answer] = await readAccountWith(c.var.db, verified, c.var.readAccount, this.query.with(args));
    const admitted = admitCaller(account, c.req);
    this.answers.set(c.req.raw, { args, answer });
    return admitted;
  }

  /**
   * The answer read for this request when it was read with arguments the handler `matches` (those it validated);
   * else undefined. Taken once, as WriteAhead's outcome is.
   */
  take(request: Request, matches: (args: A) => boolean): { answer: R } | undefined {
    const kept = this.answers.get(request);
    this.answers.delete(request);
    return kept && matches(kept.args) ? { answer: kept.answer } : undefined;
  }
}
