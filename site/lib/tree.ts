// File paths → a nested tree for the lesson's file list, and stable anchors for each file.
export interface TreeNode {
  name: string;
  path: string;
  children?: TreeNode[];
}

export function fileTree(paths: string[]): TreeNode[] {
  const root: TreeNode[] = [];
  for (const file of paths) {
    let level = root;
    const parts = file.split('/');
    parts.forEach((name, i) => {
      const path = parts.slice(0, i + 1).join('/');
      const leaf = i === parts.length - 1;
      let node = level.find((n) => n.name === name && (leaf ? !n.children : !!n.children));
      if (!node) {
        node = leaf ? { name, path } : { name, path, children: [] };
        level.push(node);
      }
      if (node.children) level = node.children;
    });
  }
  const sort = (nodes: TreeNode[]): TreeNode[] =>
    nodes
      .sort((a, b) => Number(!a.children) - Number(!b.children) || a.name.localeCompare(b.name))
      .map((n) => (n.children ? { ...n, children: sort(n.children) } : n));
  return sort(root);
}

export function fileAnchor(path: string): string {
  return `file-${path.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}
