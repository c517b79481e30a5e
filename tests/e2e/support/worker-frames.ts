/**
 * The text frames the shared worker sends on its websockets, read over CDP: Playwright sees only a
 * page's own sockets, and the cache socket belongs to the SharedWorker. Attach before the frames
 * of interest are sent; the worker must outlive the page's navigations (client-side links).
 */
import { expect, type Browser } from '@playwright/test';

export interface WorkerFrames {
  /** Parsed JSON text frames sent so far, in order. */
  sent: unknown[][];
  detach(): Promise<void>;
}

export async function watchWorkerFrames(browser: Browser): Promise<WorkerFrames> {
  const cdp = await browser.newBrowserCDPSession();
  let targetId = '';
  await expect
    .poll(async () => {
      const { targetInfos } = await cdp.send('Target.getTargets');
      targetId = targetInfos.find((t) => t.type === 'shared_worker')?.targetId ?? '';
      return targetId;
    })
    .not.toBe('');
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: false });
  const sent: unknown[][] = [];
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    if (e.sessionId !== sessionId) return;
    const msg = JSON.parse(e.message) as { method?: string; params?: { response?: { opcode: number; payloadData: string } } };
    if (msg.method !== 'Network.webSocketFrameSent' || msg.params?.response?.opcode !== 1) return;
    try {
      const frame: unknown = JSON.parse(msg.params.response.payloadData);
      if (Array.isArray(frame)) sent.push(frame);
    } catch {
      // not JSON: not a protocol frame
    }
  });
  await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'Network.enable' }) });
  return { sent, detach: () => cdp.detach() };
}
