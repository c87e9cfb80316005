import { ObjectId } from 'mongodb';
import type { MessagesEvent, RelayedClientEvent } from '../../durable-objects/realtime-events';
import type { ShardFigure } from '../../durable-objects/shard-figures';
import type { SocketIdentity } from '../../durable-objects/socket-attachment';
import { type RoomSettings, SocketShardBase } from '../../durable-objects/socket-shard';
import { readUser } from '../accounts/users/read-user';
import { BoundedCache } from '../platform/bounded-cache';
import { openRequestConnection, type RequestConnection } from '../platform/db/connection';
import type { Env } from '../platform/env';
import { LIMITS } from '../platform/limits';
import { logError } from '../platform/ops/log-line';
import { recordDelivery, recordRealtimeRefusal, recordShardSessions } from '../platform/ops/metrics';
import { recordPresence, recordViewing, sendToRiders } from '../platform/realtime/directory';
import { roomSettings } from '../platform/realtime/settings';
import { MissingSettingError } from '../platform/setting-error';
import { signingKeys } from '../platform/tokens/keys';
import { readAccountForToken } from '../platform/tokens/service';
import { activeSuspension } from '../platform/tokens/suspension';
import { tokenVersionOf, verifyWithKeys } from '../platform/tokens/token';
import { findConversationWithBlock } from './conversations/service';

type Peers = { peers: string[] } | { refused: string };

/**
 * The socket shard with the service's rules: who a token is, who takes part in a conversation,
 * and where typing indicators go. The framing and hibernation are durable-objects/socket-shard.ts.
 */
export class SocketShard extends SocketShardBase<Env> {
  // A Durable Object may keep a client across requests, unlike a Worker (worker/platform/db/connection.ts).
  private connection: RequestConnection | null = null;
  // Keyed by the conversation id a typing frame names, so bounded: a client cannot grow it.
  private readonly peerCache = new BoundedCache<Peers>(LIMITS.realtime.peerCacheEntries, LIMITS.realtime.peerCacheMs);
  // Counts relation changes heard, so a read begun before one is not kept after it.
  private relationChanges = 0;

  protected settings(): RoomSettings {
    return roomSettings(this.env);
  }

  protected async authenticate(token: string | null): Promise<SocketIdentity | { refused: string }> {
    if (!token) return { refused: 'Authentication required: send the session token as auth.token.' };
    try {
      // The previous secret still verifies during a rotation (docs/sessions.md); an expired opt-in token is refused.
      const verified = await verifyWithKeys(token, signingKeys(this.env));
      if (!verified || verified === 'expired') return { refused: 'Invalid session token.' };
      const { claims } = verified;
      const account = await this.withStore((store) => readAccountForToken(store, verified, readUser));
      if (!account) return { refused: 'This account no longer exists or no longer accepts this token.' };
      // As every access check refuses a suspended rider (worker/platform/middleware/suspended.ts).
      if (activeSuspension(account)) return { refused: 'Account suspended.' };
      const session = verified.sessionId ? { sessionId: verified.sessionId } : {};
      return { userId: claims._id, tokenVersion: tokenVersionOf(claims), ...session };
    } catch (error) {
      logError('socket-shard: namespace connect', error);
      return { refused: unavailable(error) };
    }
  }

  protected async onClientEvent(
    from: { userId: string; sid: string },
    event: RelayedClientEvent,
  ): Promise<string | null> {
    const { conversationId } = event.payload;
    try {
      const found = await this.peersOf(from.userId, conversationId);
      if ('refused' in found) return found.refused;
      const relayed: MessagesEvent =
        event.name === 'typing:start'
          ? {
              namespace: '/messages',
              name: 'typing:start',
              payload: { conversationId, userId: from.userId, expiresInMs: this.settings().typingTtlMs },
            }
          : { namespace: '/messages', name: 'typing:stop', payload: { conversationId, userId: from.userId } };
      await sendToRiders(this.env, found.peers, relayed);
      return null;
    } catch (error) {
      logError(`socket-shard: ${event.name} relay`, error);
      return unavailable(error);
    }
  }

  protected async onPresence(userId: string, socketId: string, present: boolean): Promise<void> {
    try {
      await recordPresence(this.env, userId, this.ctx.id.toString(), socketId, present);
    } catch (error) {
      logError('socket-shard: presence', error);
    }
  }

  protected async onViewing(userId: string, socketId: string, conversationId: string | null, seq: number) {
    try {
      await recordViewing(this.env, userId, this.ctx.id.toString(), socketId, conversationId, seq);
    } catch (error) {
      logError('socket-shard: viewing', error);
    }
  }

  protected onFigure(figure: ShardFigure): void {
    if (figure.kind === 'sessions') recordShardSessions(this.env, figure);
    else if (figure.kind === 'delivery') recordDelivery(this.env, figure);
    else recordRealtimeRefusal(this.env, figure);
  }

  protected onRelationsChanged(userIds: string[]): void {
    const riders = new Set(userIds);
    this.relationChanges += 1;
    this.peerCache.forgetWhere((key) => riders.has(key.slice(key.lastIndexOf(':') + 1)));
  }

  /** The other participants, unless the conversation is not the rider's or a block stands between them (as REST refuses). */
  private async peersOf(userId: string, conversationId: string): Promise<Peers> {
    const key = `${conversationId}:${userId}`;
    const cached = this.peerCache.get(key);
    if (cached) return cached;
    const readAt = this.relationChanges;
    const peers = await this.withStore(async (store): Promise<Peers> => {
      const rider = new ObjectId(userId);
      const found = await findConversationWithBlock(store, new ObjectId(conversationId), rider);
      if (!found) return { refused: 'Conversation not found.' };
      if (found.blocked) return { refused: 'You cannot message this rider.' };
      const others = found.conversation.participantIds.filter((id) => !id.equals(rider));
      return { peers: others.map((id) => id.toHexString()) };
    });
    if (readAt === this.relationChanges) this.peerCache.set(key, peers);
    return peers;
  }

  /** Queries through the shard's one client; the driver reconnects by itself, and concurrent callers share it. */
  private withStore<T>(query: (store: RequestConnection['store']) => Promise<T>): Promise<T> {
    this.connection ??= openRequestConnection(this.env);
    return query(this.connection.store);
  }
}

function unavailable(error: unknown): string {
  return error instanceof MissingSettingError ? error.message : 'The service is unavailable; try again shortly.';
}
