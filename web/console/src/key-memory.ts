/**
 * Keys created in this tab, so the playground can offer them: kept in memory only (never in
 * storage), since a key's secret is shown once and must not linger in the browser.
 */
export interface RememberedKey {
  name: string;
  key: string;
}

const remembered: RememberedKey[] = [];

export const rememberKey = (entry: RememberedKey): void => {
  remembered.unshift(entry);
};

export const rememberedKeys = (): readonly RememberedKey[] => remembered;

export const forgetKeys = (): void => {
  remembered.length = 0;
};
