/** Something in a check-in that did not look right; logged, never a reason to refuse (DESIGN §3). */
export interface OtaComplaint {
  /** `header device-id`, `body application.version`, … */
  readonly field: string;
  readonly problem: string;
}
