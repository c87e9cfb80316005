// A browser cannot set headers on a WebSocket, and a token in the URL is kept in access logs: it sends the token as
// the second of the subprotocols it offers, `new WebSocket(url, ['rider-token', token])` (docs/voice.md).

/** The subprotocol naming the token that follows it; the one the voice box answers, as a browser requires. */
export const TOKEN_PROTOCOL = 'rider-token';

/**
 * The token offered as `rider-token, <token>` in Sec-WebSocket-Protocol, and the header as it goes on to the voice
 * box: `rider-token` alone, so the token never travels further. Undefined token when the header offers none.
 */
export function tokenFromProtocols(header: string | undefined): { token?: string; forwarded?: string } {
  const offered = (header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (offered[0] !== TOKEN_PROTOCOL || !offered[1]) return { forwarded: header };
  return { token: offered[1], forwarded: TOKEN_PROTOCOL };
}
