// The WebSocket frames the fan-out writes straight to TCP sockets, checked against the ws library's own
// receiver: every length class of RFC 6455 (7-bit, 16-bit, 64-bit lengths) decodes to the same text, and
// frames joined in one buffer come apart as separate messages.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { textFrame } from './fanout.ts';

// ws's frame reader, which its type declarations leave out.
interface FrameReader {
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  write(bytes: Buffer, done: () => void): void;
}
const { Receiver } = createRequire(import.meta.url)('ws') as {
  Receiver: new (options: { isServer: boolean }) => FrameReader;
};

function read(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const receiver = new Receiver({ isServer: false });
    const messages: string[] = [];
    receiver.on('message', (data: Buffer) => messages.push(data.toString()));
    receiver.on('error', reject);
    receiver.write(bytes, () => resolve(messages));
  });
}

describe('textFrame', () => {
  it.each([0, 1, 125, 126, 65_535, 65_536, 200_000])('frames %i bytes as ws reads them', async (length) => {
    const text = 'x'.repeat(length);
    const frame = textFrame(Buffer.from(text));
    expect(frame[0]).toBe(0x81);
    expect(frame.length - length).toBe(length < 126 ? 2 : length < 65_536 ? 4 : 10);
    expect(await read(frame)).toEqual([text]);
  });

  it('carries UTF-8 text byte for byte', async () => {
    const text = '42["market_detail",{"symbol":"比特币/USDT","note":"é"}]';
    expect(await read(textFrame(Buffer.from(text)))).toEqual([text]);
  });

  it('joins frames that a reader takes apart one message at a time', async () => {
    const texts = ['42["a",1]', '42["b",2]', '42["c",3]'];
    expect(await read(Buffer.concat(texts.map((text) => textFrame(Buffer.from(text)))))).toEqual(texts);
  });
});
