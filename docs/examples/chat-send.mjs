// Signs in, opens a conversation with another rider, sends one message and prints the reply.
// Usage: node docs/examples/chat-send.mjs <email> <password> <other rider's id> <text>
// RIDER_URL picks the service (default: the local stack at http://127.0.0.1:8787).
import { io } from 'socket.io-client';

const base = process.env.RIDER_URL ?? 'http://127.0.0.1:8787';
const [email, password, otherId, text = 'Session at 5?'] = process.argv.slice(2);
if (!email || !password || !otherId) {
  throw new Error("usage: node docs/examples/chat-send.mjs <email> <password> <other rider's id> <text>");
}
const call = async (path, token, body) => {
  const res = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-auth-token': token } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
};

const { token, user } = await call('/auth', null, { email, password });
const messages = io(`${base}/messages`, { transports: ['websocket'], auth: { token } });
await new Promise((resolve, reject) => {
  messages.once('connect', resolve);
  messages.once('connect_error', reject);
});
// The same two riders always get the same conversation back.
const conversation = await call('/conversations', token, { participantIds: [otherId] });
messages.on('typing:start', () => console.log('… typing'));
const reply = new Promise((resolve) => {
  messages.on('message:created', ({ conversationId, message }) => {
    if (conversationId === conversation._id && message.sender?._id !== user._id) resolve(message);
  });
});
await call(`/conversations/${conversation._id}/messages`, token, { text });
console.log(`${user.name}: ${text}`);
const answer = await reply;
console.log(`${answer.sender?.name}: ${answer.text}`);
messages.disconnect();
