import { describe, expect, it } from 'vitest';
import { tokenFromProtocols } from '../../../worker/companion/voice/token-protocol';

describe('the token offered as a WebSocket subprotocol', () => {
  it('is the entry after rider-token, and only rider-token goes on to the voice box', () => {
    expect(tokenFromProtocols('rider-token, eyJ.a.b')).toEqual({ token: 'eyJ.a.b', forwarded: 'rider-token' });
    expect(tokenFromProtocols('rider-token,eyJ.a.b, other')).toEqual({ token: 'eyJ.a.b', forwarded: 'rider-token' });
  });

  it('is none when rider-token does not come first with a token after it; the header then goes on as it was', () => {
    expect(tokenFromProtocols(undefined)).toEqual({ forwarded: undefined });
    expect(tokenFromProtocols('chat, rider-token')).toEqual({ forwarded: 'chat, rider-token' });
    expect(tokenFromProtocols('rider-token')).toEqual({ forwarded: 'rider-token' });
  });
});
