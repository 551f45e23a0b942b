/** A decimal amount with its currency, as every money figure of the console is shown. */
export const money = (amount: string, currency: string): string => `${amount} ${currency}`;

/** Whether a typed amount is a decimal the server takes (at most 6 decimals); a sign only when allowed. */
export const isAmount = (text: string, signed = false): boolean =>
  (signed ? /^-?[0-9]{1,12}([.][0-9]{1,6})?$/ : /^[0-9]{1,12}([.][0-9]{1,6})?$/).test(text.trim());

export const KIND_LABEL = { credit: 'Top-up', debit: 'Debit', redeem: 'Code redeemed', usage: 'Call' } as const;
