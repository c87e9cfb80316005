// Signs in, joins /messages and answers every message it receives (first showing "typing").
// Usage: node docs/examples/chat-listen.mjs <email> <password>
// RIDER_URL picks the service (default: the local stack at http://127.0.0.1:8787).
import { io } from 'socket.io-client';

const base = process.env.RIDER_URL ?? 'http://127.0.0.1:8787';
const [email, password] = process.argv.slice(2);
if (!email || !password) throw new Error('usage: node docs/examples/chat-listen.mjs <email> <password>');

const signIn = await fetch(`${base}/api/auth`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email, password }),
});
if (!signIn.ok) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
const { token, user } = await signIn.json();

const messages = io(`${base}/messages`, { transports: ['websocket'], auth: { token } });
messages.on('connect_error', (error) => console.error('refused:', error.message));
messages.on('connect', () => console.log(`${user.name} is listening. Your id: ${user._id}`));
messages.on('typing:start', ({ userId }) => console.log(`… ${userId} is typing`));
messages.on('message:created', async ({ conversationId, message }) => {
  if (message.sender?._id === user._id) return;
  console.log(`${message.sender?.name ?? 'a deleted rider'}: ${message.text}`);
  await messages.emitWithAck('typing:start', { conversationId });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const reply = await fetch(`${base}/api/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': token, 'x-socket-id': messages.id },
    body: JSON.stringify({ text: `Got it: "${message.text}". See you at the park!` }),
  });
  await messages.emitWithAck('typing:stop', { conversationId });
  console.log(reply.ok ? '(replied)' : `reply answered ${reply.status}`);
});
