export function escape(es: string): string;
