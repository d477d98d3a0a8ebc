// A lesson's code as a download, `<lesson page>/<folder>.zip` (site/lib/download.ts): the lesson
// folder's files as verified, read only as regular files inside it (pipeline/read/index.ts).
import type { APIContext } from 'astro';
import { readLessonDownload } from '../../pipeline/read/index.ts';
import { lessonEntries } from '../lib/collections-named.ts';
import { lessonZip } from '../lib/download.ts';
import { siteOptions } from '../lib/options.ts';

export async function getStaticPaths() {
  const lessons = await lessonEntries();
  return lessons.map((entry) => ({
    params: { lesson: `${entry.data.id}-${entry.data.slug}`, folder: entry.data.folder },
    props: { dir: entry.data.dir, folder: entry.data.folder, at: entry.data.verification.at },
  }));
}

export function GET({ props }: APIContext<{ dir: string; folder: string; at: string | null }>): Response {
  const zip = lessonZip(
    props.folder,
    readLessonDownload(siteOptions().course, props.dir),
    props.at ? new Date(props.at) : undefined,
  );
  return new Response(new Blob([zip as Uint8Array<ArrayBuffer>]), { headers: { 'content-type': 'application/zip' } });
}
