// Types of the virtual module the codelabgen integration serves (pipeline/site/options.ts).
declare module 'virtual:codelabgen/options' {
  const options: import('../pipeline/read/index.ts').SiteOptions;
  export default options;
}
