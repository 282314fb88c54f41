// Lint, including the architecture's boundaries (house style): lib/domain stays
// pure, and only lib/db (and the server code that calls it) touches the database.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";

const dbImports = ["@/lib/db", "@/lib/db/*", "**/lib/db", "**/lib/db/*", "@prisma/*", "better-sqlite3", "pg"];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**", ".next/**", ".next-*/**", "dist/**", "data/**", "lib/db/generated/**", "test-results/**", "playwright-report/**",
      "next-env.d.ts", "bench/.out/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": "error",
      "no-console": "off",
    },
  },
  {
    files: ["**/*.tsx", "components/**/*.ts", "lib/hooks/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    files: ["lib/domain/**/*.ts"],
    ignores: ["lib/domain/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["react", "react-dom", "react/*", "next", "next/*"], message: "lib/domain is pure: no React or Next.js." },
            { group: dbImports, message: "lib/domain is pure: no database access (lib/db is the only Prisma importer)." },
            { group: ["node:fs", "node:fs/*", "fs", "fs/*", "node:net", "node:http", "node:https", "node:child_process"], message: "lib/domain is pure: parsers take strings or async iterables, never paths." },
            { group: ["@/lib/db*", "../db/*", "../../db/*", "@/lib/cli/*", "@/lib/actions/*", "@/app/*", "@/components/*"], message: "lib/domain depends on nothing outside lib/domain." },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ group: dbImports, allowTypeImports: true, message: "Components render what they are handed; pages and actions read the database." }] },
      ],
    },
  },
);
