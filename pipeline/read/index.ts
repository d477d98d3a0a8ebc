// THE read-only API of a course for the site: config, curriculum, state, lesson docs, code,
// diagrams, verification, glossary, sources and report. It never writes into the course. The only
// module of pipeline/read/ that site/ and pipeline/site/ import (one instance of build-state.ts).
export type { Course } from '../course/course.ts';
export type { DiagramRef, RenderedDoc } from '../site/segments.ts';
export type { GroupSegment, LeafSegment, Segment } from '../site/segments.ts';
export { IMAGE_PLACEHOLDER } from '../site/segments.ts';
export type { DocImage, DocLinks } from '../site/doc-links.ts';
export { stageDocImage } from '../site/doc-images.ts';
export { downloadNameProblem } from '../artifacts/download-names.ts';
export { renderInline, renderMarkdown } from '../site/markdown.ts';
export type { SiteOptions } from '../site/options.ts';
export { progressBoardHtml, PROGRESS_EVENTS, REVIEW_ARTIFACTS, reviewPagePath } from '../site/progress-live.ts';
export * from './course-data.ts';
export * from './build-state.ts';
export * from './lesson-files.ts';
export * from './git-history.ts';
export {
  readCachedDiagram as readDiagramSvg,
  diagramOutcome,
  diagramRenderer,
  type CachedDiagram,
} from '../site/diagrams.ts';
export { leanSvg, pruneStyle, type DiagramStyle } from '../site/diagram-theme.ts';
export { readSiteAssets } from '../site/assets.ts';
export { CodeRefError, parseCodeRef, resolveCodeRef } from '../site/code-refs.ts';
export { diagramHash, diagramTitle } from '../site/segments.ts';
