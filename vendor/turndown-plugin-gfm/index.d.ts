// The plugin ships no types; these are the parts the reader uses.
import type TurndownService from 'turndown';
export declare const gfm: TurndownService.Plugin;
export declare const tables: TurndownService.Plugin;
export declare const strikethrough: TurndownService.Plugin;
export declare const taskListItems: TurndownService.Plugin;
