import type { CallMeter } from './call-meter.js';
import { imagePrice } from './price.js';

/**
 * Before an operation priced per call (`reader`, `web_search`, … keyed by its id) does its work:
 * reserves the price, and bills it with the call's record. Throws 1113 when it does not fit.
 * An operation without a price (or whose price is of tokens, billed by its generations) costs
 * nothing here.
 */
/** Whether an operation has a price per call of its own (`priceCall` then reserves it). */
export function pricedPerCall(meter: CallMeter, operation: string): boolean {
  return (meter.priceOf(operation)?.perCall ?? 0) > 0;
}

export async function priceCall(meter: CallMeter, operation: string): Promise<void> {
  const amount = meter.priceOf(operation)?.perCall ?? 0;
  if (amount <= 0) return;
  await meter.reserve(amount);
  meter.addFixed(amount);
}

/**
 * Before `count` images of an image model are made: reserves count × the price of one of this
 * size and quality (plus the model's per-call price). Returns the amount to bill once they are
 * made (`meter.addFixed`); 0 when the model has no price. Throws 1113 when it does not fit.
 */
export async function reserveImages(
  meter: CallMeter,
  model: string,
  image: { size: string; quality: string; count: number },
): Promise<number> {
  const price = meter.priceOf(model);
  if (price === undefined) return 0;
  const amount = price.perCall + image.count * (imagePrice(price, image.size, image.quality) ?? 0);
  await meter.reserve(amount);
  return amount;
}
