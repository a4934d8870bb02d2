/** Bytes shared by every event log of the process (IAC_CODE_AGUI_REATTACH_TOTAL_BYTES). */
export class ByteBudget {
  private used = 0;

  constructor(private readonly limit: number) {}

  get usedBytes(): number {
    return this.used;
  }

  /** Takes `bytes` if they fit; false (nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}
