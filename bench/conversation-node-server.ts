/**
 * The conventional server bench/conversation-messages.ts compares the project with: node:http + socket.io + the
 * mongodb driver, doing per message what `POST /api/conversations/{id}/messages` does: verify the session JWT (jose,
 * the same secret and algorithm), read the caller's account, check membership and blocks in one aggregation, insert
 * the message, record it in the conversation (the same update), emit `message:created` to the other participants'
 * sockets but the sender's own, and read the recipients' live push tokens (the project's push decision reads them for
 * a rider not viewing the chat). Started as a process of its own so the bench can read its CPU.
 * Run by the bench: node --import tsx bench/conversation-node-server.ts <mongodb uri> <jwt secret>
 */
import { createServer } from 'node:http';
import { jwtVerify } from 'jose';
import { MongoClient, ObjectId } from 'mongodb';
import { Server } from 'socket.io';

const [uri, secret] = process.argv.slice(2) as [string, string];
const key = new TextEncoder().encode(secret);
const client = new MongoClient(uri);
const db = client.db();
const users = db.collection('users');
const conversations = db.collection('conversations');
const messages = db.collection('dm_messages');
const pushTokens = db.collection('pushTokens');

const verified = async (token: unknown) =>
  typeof token === 'string' ? (await jwtVerify(token, key, { algorithms: ['HS256'] })).payload : undefined;

const http = createServer((req, res) => {
  const answer = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const match = /^\/api\/conversations\/([0-9a-f]{24})\/messages$/.exec(req.url ?? '');
  if (req.method !== 'POST' || !match) return answer(404, { error: 'Not found.' });
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', async () => {
    try {
      const claims = await verified(req.headers['x-auth-token']).catch(() => undefined);
      if (!claims) return answer(400, { error: 'Invalid token.' });
      const senderId = new ObjectId(claims._id as string);
      const account = await users.findOne({ _id: senderId }, { projection: { password: 0 } });
      if (!account) return answer(400, { error: 'Invalid token.' });
      const { text } = JSON.parse(raw) as { text: string };
      const [conversation] = await conversations
        .aggregate([
          { $match: { _id: new ObjectId(match[1]), participantIds: senderId } },
          { $limit: 1 },
          {
            $lookup: {
              from: 'user_blocks',
              localField: 'participantIds',
              foreignField: 'blockedUserId',
              pipeline: [{ $match: { userId: senderId } }, { $limit: 1 }, { $project: { _id: 1 } }],
              as: 'byRider',
            },
          },
          {
            $lookup: {
              from: 'user_blocks',
              localField: 'participantIds',
              foreignField: 'userId',
              pipeline: [{ $match: { blockedUserId: senderId } }, { $limit: 1 }, { $project: { _id: 1 } }],
              as: 'ofRider',
            },
          },
        ])
        .toArray();
      if (!conversation) return answer(404, { error: 'Conversation not found.' });
      if (conversation.byRider.length + conversation.ofRider.length > 0) return answer(403, { error: 'Blocked.' });
      const now = new Date();
      const message = {
        _id: new ObjectId(),
        conversationId: conversation._id,
        userId: senderId,
        text,
        createdAt: now,
        updatedAt: now,
      };
      await messages.insertOne(message);
      await conversations.updateOne(
        { _id: conversation._id },
        {
          $max: { lastActivityAt: now, lastMessageId: message._id },
          $set: { updatedAt: now, 'readMarkers.$[sender]': { userId: senderId, messageId: message._id, readAt: now } },
        },
        { arrayFilters: [{ 'sender.userId': senderId, 'sender.messageId': { $not: { $gte: message._id } } }] },
      );
      const view = {
        _id: message._id.toHexString(),
        conversationId: conversation._id.toHexString(),
        text,
        sender: { _id: senderId.toHexString(), name: account.name, imageUri: account.imageUri ?? null },
        createdAt: now.toISOString(),
      };
      answer(201, view);
      const others = (conversation.participantIds as ObjectId[]).filter((id) => !id.equals(senderId));
      const except = req.headers['x-socket-id'];
      let to = io.of('/messages').to(others.map((id) => id.toHexString()));
      if (typeof except === 'string') to = to.except(except);
      to.emit('message:created', { conversationId: view.conversationId, message: view });
      await pushTokens.find({ userId: { $in: others }, deadAt: null }).toArray();
    } catch (error) {
      if (!res.headersSent) answer(500, { error: String(error) });
    }
  });
});

const io = new Server(http, { transports: ['websocket'] });
io.of('/messages').use(async (socket, next) => {
  const claims = await verified(socket.handshake.auth.token).catch(() => undefined);
  if (!claims) return next(new Error('Invalid token.'));
  socket.join(claims._id as string);
  next();
});

await client.connect();
http.listen(0, '127.0.0.1', () => {
  const address = http.address() as { port: number };
  console.log(`listening ${address.port}`);
});
