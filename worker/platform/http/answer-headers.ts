/**
 * Sets headers on the answer a middleware's `next()` left, copying it first when its headers are immutable (a
 * response from a Durable Object or the voice box). A WebSocket handshake's 101 carries the socket and goes back
 * exactly as the object answered it, so it takes none.
 */
export function setAnswerHeaders(c: { res: Response }, headers: Record<string, string>): void {
  if (c.res.status === 101) return;
  try {
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  } catch {
    const copy = new Response(c.res.body, c.res);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    c.res = copy;
  }
}
