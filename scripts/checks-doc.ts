import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { checksDocument } from '../domain/checks/catalog-document';
import { PROJECT_ROOT } from './tools';

// Writes docs/checks.md from the catalogue (domain/checks/catalog-document.ts). Run it after adding or changing a
// check: test/unit/checks/catalog-document.test.ts fails while the committed file differs.

const target = path.join(PROJECT_ROOT, 'docs/checks.md');
writeFileSync(target, checksDocument());
console.log(`Wrote ${path.relative(PROJECT_ROOT, target)}`);
