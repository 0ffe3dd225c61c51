/** A full page load of `path` (the spec's "goes to the preset path and reloads"). */
export function reloadAt(path: string): void {
  window.location.assign(path);
}
