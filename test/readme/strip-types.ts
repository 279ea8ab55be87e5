// A TypeScript block of the docs as JavaScript to run: its types stripped, nothing else changed.
import { transformSync } from 'esbuild';

/**
 * The block with its types stripped, as TypeScript strips them (esbuild: a test file need not load
 * the whole compiler to do it); `cjs` turns its imports into require() calls as well.
 */
export function stripTypes(code: string, format?: 'cjs'): string {
  return transformSync(code, { loader: 'ts', target: 'es2022', ...(format ? { format } : {}) }).code;
}
