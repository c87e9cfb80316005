/** A typing indicator a shard relayed to some of its riders, until it stops or expires. */
export interface TypingEntry {
  conversationId: string;
  /** Who is typing. */
  userId: string;
  /** The riders on this shard who were told. */
  receivers: string[];
  expiresAt: number;
}

const PREFIX = 'typing:';
const keyOf = (conversationId: string, userId: string) => `${PREFIX}${conversationId}:${userId}`;

/**
 * The typing indicators a shard has relayed, kept in storage so one that is never refreshed still
 * stops after a wake-up: the shard's alarm asks for the expired ones and tells their receivers.
 */
export class TypingLedger {
  constructor(private readonly storage: DurableObjectStorage) {}

  /** Records (or refreshes) an indicator; answers when it expires. */
  async started(entry: TypingEntry): Promise<number> {
    await this.storage.put(keyOf(entry.conversationId, entry.userId), entry);
    return entry.expiresAt;
  }

  async stopped(conversationId: string, userId: string): Promise<void> {
    await this.storage.delete(keyOf(conversationId, userId));
  }

  /** Removes and answers the indicators due by `now`. */
  async expired(now: number): Promise<TypingEntry[]> {
    const due = [...(await this.storage.list<TypingEntry>({ prefix: PREFIX })).entries()].filter(
      ([, entry]) => entry.expiresAt <= now,
    );
    if (due.length) await this.storage.delete(due.map(([key]) => key));
    return due.map(([, entry]) => entry);
  }

  async nextExpiry(): Promise<number | null> {
    let next: number | null = null;
    for (const entry of (await this.storage.list<TypingEntry>({ prefix: PREFIX })).values()) {
      if (next === null || entry.expiresAt < next) next = entry.expiresAt;
    }
    return next;
  }
}
