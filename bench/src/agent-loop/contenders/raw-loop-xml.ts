// The raw loop speaking agent-core's protocol and nothing more: each request carries the
// XML-NEXT notice agent-core would send (rendered by @agent/xml-transport, with a fresh nonce
// per session, the turn and a context use), and the answer is read out of the FINAL tag the
// model then writes with @agent/xml-transport's parser, as any client of the protocol must. It
// has agent-core's request and answer bytes without its runtime, so agent-core-unwatched (the
// same requests: no agent__task_status) minus this is the runtime's own cost, and this minus
// raw-loop is the protocol's.
import { createNonce, parseFinalSlot, renderXmlNext } from '@agent/xml-transport';
import { rawLoop } from './raw-loop.js';
import type { ContenderFactory } from './types.js';

export const createRawLoopXml: ContenderFactory = (baseURL) =>
  rawLoop(baseURL, {
    session() {
      const nonce = createNonce();
      return {
        notice: (turn) => renderXmlNext({ nonce, turn, maxTurns: 22, contextPercent: 0, format: 'text' }),
        answer: (text) => {
          const slot = parseFinalSlot(text, { nonce });
          return slot.found ? slot.payload : text;
        },
      };
    },
  });
