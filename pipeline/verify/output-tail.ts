// A byte-capped tail of a process's output: counts every byte, keeps only the last `cap` bytes.
export class OutputTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  private total = 0;
  private readonly cap: number;
  constructor(cap: number) {
    this.cap = cap;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    while (this.chunks.length > 1 && this.kept - this.chunks[0]!.length >= this.cap)
      this.kept -= this.chunks.shift()!.length;
  }

  /** The kept text (a character cut at the start is dropped), total bytes, and whether it was cut. */
  result(): { output_tail: string; output_bytes: number; output_truncated: boolean } {
    const all = Buffer.concat(this.chunks);
    const truncated = this.total > this.cap;
    let text = (truncated ? all.subarray(all.length - this.cap) : all).toString('utf8');
    if (truncated) text = text.replace(/^\uFFFD+/, '');
    return { output_tail: text, output_bytes: this.total, output_truncated: truncated };
  }
}
