import { ObjectId } from 'mongodb';
import { ACCOUNT_REFUSALS } from '../../accounts/users/refusals';
import { findUserById } from '../../accounts/users/service';
import type { AppEnv } from '../../platform/app-env';
import { IdParam } from '../../platform/http/ids';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { PageQuery, toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { auth } from '../../platform/middleware/auth';
import { hasPremium } from '../entitlements';
import { allowanceDay, allowanceResetsAt, paidAiSettings } from '../paid-ai';
import { allowanceUsed } from './allowance';
import { grantByAdmin } from './grants';
import { findAccount, ledgerPage } from './ledger';
import { reconciliationPage } from './reconciliation';
import { AdminCreditGrant, AdminCreditGrantResult, AiCredits, LedgerPage, UsageReconciliationPage } from './schema';
import { ledgerEntryView } from './views';

const TAGS = ['ai-credits'];

const getMyCredits = defineRoute({
  method: 'get',
  path: '/me/ai-credits',
  tags: TAGS,
  summary: "Your AI credit balance and today's companion allowance",
  description:
    "Replies of a priced companion model come from the plan's daily allowance (UTC day), then cost credits; the offline companion's replies and the local speech engine's speech cost nothing and take neither. Credits arrive by purchase (the payment webhook's `credits.purchased`), premium's monthly grant and admin grants.",
  middleware: [auth()] as const,
  responses: { 200: jsonResponse(AiCredits, 'The balance and the allowance'), 404: errorResponse('No such account') },
});

const getMyLedger = defineRoute({
  method: 'get',
  path: '/me/ai-credits/ledger',
  tags: TAGS,
  summary: 'Your AI credit ledger, newest first',
  description:
    'Every change of the balance: grant, purchase, reserve (before a paid call), settle (its real cost; the rest back), release (all back: the call failed), expire. The balance is the sum of `amount`.',
  middleware: [auth()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(LedgerPage, 'A page of entries') },
});

const adminGrant = defineRoute({
  method: 'post',
  path: '/users/{id}/ai-credits',
  tags: ['admin'],
  summary: "Grant AI credits to a rider's account",
  description: 'Entered in the ledger with the reason and the granting admin.',
  middleware: [admin()] as const,
  request: { params: IdParam, ...jsonBody(AdminCreditGrant) },
  responses: {
    201: jsonResponse(AdminCreditGrantResult, 'Granted'),
    404: errorResponse('No such account'),
  },
});

const listReconciliations = defineRoute({
  method: 'get',
  path: '/usage/reconciliation',
  tags: ['admin'],
  summary: 'Daily usage reconciliations: ledger settles against usage_events, per UTC day',
  description:
    'A cron (00:15 UTC) checks the previous day; every day gets an entry, clean (difference 0) or not. Most recently created first.',
  middleware: [admin()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(UsageReconciliationPage, 'A page of days') },
});

/** The rider's own credit and ledger, mounted under /api/users. */
export const myAiCreditRoutes = createRouter<AppEnv>()
  .openapi(getMyCredits, async (c) => {
    const userId = new ObjectId(c.var.user._id);
    const account = await findAccount(c.var.db, userId);
    const now = new Date();
    const limit = paidAiSettings(c.env).dailyReplies[hasPremium(c.var.account.subscription) ? 'premium' : 'free'];
    return c.json(
      {
        balance: account.balance,
        reserved: account.reserved,
        allowance: {
          used: Math.min(limit, allowanceUsed(account.allowance, allowanceDay(now))),
          limit,
          resetsAt: allowanceResetsAt(now).toISOString(),
        },
      },
      200,
    );
  })
  .openapi(getMyLedger, async (c) => {
    const query = c.req.valid('query');
    const rows = await ledgerPage(c.var.db, new ObjectId(c.var.user._id), query);
    return c.json(toPage(rows, query.limit, ledgerEntryView), 200);
  });

/** Admin grants and the usage reconciliation, mounted under /api/admin. */
export const adminAiCreditRoutes = createRouter<AppEnv>()
  .openapi(adminGrant, async (c) => {
    const userId = new ObjectId(c.req.valid('param').id);
    if (!(await findUserById(c.var.db, userId))) throw refusal(ACCOUNT_REFUSALS, 'not-found');
    const grant = c.req.valid('json');
    await grantByAdmin(c.var.db, userId, { ...grant, adminId: new ObjectId(c.var.user._id) });
    const { balance } = await findAccount(c.var.db, userId);
    return c.json({ granted: grant.amount, balance }, 201);
  })
  .openapi(listReconciliations, async (c) => {
    const query = c.req.valid('query');
    const rows = await reconciliationPage(c.var.db, query);
    return c.json(
      toPage(rows, query.limit, ({ _id, checkedAt, ...row }) => ({ ...row, checkedAt: checkedAt.toISOString() })),
      200,
    );
  });
