// The search index: pagefind's Node API over the built pages (only `data-pagefind-body` parts).
// Code line numbers, copy buttons and heading anchor links are left out of the indexed text.
const EXCLUDE = ['.ec-line .gutter', '.expressive-code .copy', '.heading-anchor'];
export async function indexSite(outDir: string): Promise<number> {
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({ excludeSelectors: EXCLUDE });
  if (!index) throw new Error(`pagefind: ${errors.join('; ')}`);
  try {
    const added = await index.addDirectory({ path: outDir });
    if (added.errors.length > 0) throw new Error(`pagefind: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: `${outDir}/pagefind` });
    if (written.errors.length > 0) throw new Error(`pagefind: ${written.errors.join('; ')}`);
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}
