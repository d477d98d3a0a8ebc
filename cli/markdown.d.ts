// A markdown file imported as text (esbuild's text loader, scripts/build.mjs): docs/agents.md in the mcp command.
declare module '*.md' {
  const text: string;
  export default text;
}
