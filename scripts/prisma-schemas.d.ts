/** Types of scripts/prisma-schemas.js (a plain Node script, also imported by tests). */
export function composeSchema(provider: "sqlite" | "postgres"): string;
export function writeSchemas(): { sqlite: string; postgres: string };
