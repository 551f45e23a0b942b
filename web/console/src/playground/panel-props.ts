/** What the playground gives each of its panels. */
export interface PanelProps {
  apiKey: string;
  /** `/paas/v4` or `/coding/paas/v4`. */
  base: string;
}
