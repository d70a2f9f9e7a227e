/**
 * Link scanners (mail security gateways, Safe Links) fetch every link of an email within seconds
 * of its delivery, long before a person could read it: a hit that soon after the email was
 * rendered is a machine's.
 */
export const SCANNER_WINDOW_S = 10;

/**
 * Clients that say what they are: scanners, crawlers and link previewers, and scripts. An empty
 * User-Agent is a machine too: mail clients and browsers always send one. Image proxies that fetch
 * the pixel when the person opens the email (GoogleImageProxy) are readers, and are not listed.
 */
const MACHINE_AGENT =
  /bot\b|bot\/|crawler|spider|scanner|preview|barracuda|proofpoint|mimecast|safelinks|symantec|forcepoint|trendmicro|headlesschrome|python-requests|curl\/|wget\/|go-http-client/i;

/** Whether a hit at `now` on an email rendered at `sentAtS` (seconds) looks like a machine's. */
export function isMachineHit(sentAtS: number, now: Date, userAgent: string | undefined): boolean {
  if (now.getTime() / 1000 - sentAtS < SCANNER_WINDOW_S) return true;
  return !userAgent?.trim() || MACHINE_AGENT.test(userAgent);
}
