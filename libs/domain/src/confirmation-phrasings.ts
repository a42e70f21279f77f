/**
 * DESIGN §4 "Confirmation in the description": phrasings that, found in a tool's description, make it sensitive
 * by default. A description is matched after normalising (Unicode NFKC, case, every run of whitespace, see
 * confirmation.ts), so each phrasing is written once in its plain form: no variants for spacing or case.
 *
 * To extend: add an entry with the phrasing and an `example`, a description as a device would write it; the
 * table's test gates every example and a re-spaced, re-cased copy of it. Chinese is listed in both scripts
 * (simplified and traditional, and Taiwan's 使用者 for "user"): nothing converts one into the other.
 * A phrasing gates only what follows a word boundary in Latin script ("caution" does not fire on "precaution"),
 * and it may run on ("ask the user to confirm" matches "…to confirmation").
 */
export interface ConfirmationPhrasing {
  phrase: string;
  /** A description that must be gated because of this phrasing (the table's test case). */
  example: string;
}

export const CONFIRMATION_PHRASINGS: readonly ConfirmationPhrasing[] = [
  // English: the firmware's own wording first (xiaozhi §3.4, self.system.reconfigure_wifi).
  {
    phrase: 'caution',
    example:
      'End this conversation and enter WiFi configuration mode. **CAUTION** You must ask the user to confirm this action.',
  },
  { phrase: 'ask the user to confirm', example: 'Erase the settings. Always ask the user to confirm first.' },
  { phrase: 'ask the user for confirmation', example: 'Factory reset: ask the user for confirmation.' },
  { phrase: 'ask the user for approval', example: 'Unlock the door; ask the user for approval.' },
  { phrase: 'ask the user for permission', example: 'Record audio after you ask the user for permission.' },
  { phrase: 'confirm with the user', example: 'Formats the SD card. Confirm with the user before calling.' },
  { phrase: 'check with the user', example: 'Deletes every alarm; check with the user before you do.' },
  { phrase: "user's confirmation", example: "Needs the user's confirmation." },
  { phrase: 'user confirmation', example: 'Powers the device off (requires user confirmation).' },
  { phrase: 'explicit confirmation', example: 'Requires explicit confirmation by the user.' },
  { phrase: 'confirmation by the user', example: 'Only after confirmation by the user.' },
  { phrase: 'confirmation from the user', example: 'Get confirmation from the user, then call.' },
  { phrase: 'confirmed by the user', example: 'The new PIN must be confirmed by the user.' },
  { phrase: 'the user must confirm', example: 'Wipes the log. The user must confirm.' },
  { phrase: "user's consent", example: "Shares the location; needs the user's consent." },
  { phrase: "user's approval", example: "Pairs a new phone with the user's approval only." },
  // Simplified Chinese.
  { phrase: '需要用户确认', example: '恢复出厂设置，需要用户确认。' },
  { phrase: '请用户确认', example: '重启设备前请用户确认。' },
  { phrase: '须用户确认', example: '清除所有数据，须用户确认。' },
  { phrase: '需用户确认', example: '格式化存储卡，需用户确认。' },
  { phrase: '用户确认后', example: '用户确认后再调用此工具。' },
  { phrase: '征得用户同意', example: '执行前请征得用户同意' },
  { phrase: '经用户同意', example: '开启麦克风录音，必须经用户同意。' },
  { phrase: '二次确认', example: '删除操作需要二次确认。' },
  { phrase: '危险操作', example: '危险操作：擦除固件分区。' },
  // Traditional Chinese (and 使用者, "user" as Taiwan writes it).
  { phrase: '需要用戶確認', example: '恢復原廠設定，需要用戶確認' },
  { phrase: '請用戶確認', example: '重新啟動裝置前請用戶確認。' },
  { phrase: '須用戶確認', example: '清除所有資料，須用戶確認。' },
  { phrase: '需用戶確認', example: '格式化記憶卡，需用戶確認。' },
  { phrase: '用戶確認後', example: '用戶確認後再呼叫此工具。' },
  { phrase: '徵得用戶同意', example: '執行前請徵得用戶同意' },
  { phrase: '經用戶同意', example: '開啟麥克風錄音，必須經用戶同意。' },
  { phrase: '需要使用者確認', example: '重設網路，需要使用者確認。' },
  { phrase: '請使用者確認', example: '關機前請使用者確認。' },
  { phrase: '徵得使用者同意', example: '分享位置前請徵得使用者同意。' },
  { phrase: '二次確認', example: '刪除操作需要二次確認。' },
  { phrase: '危險操作', example: '危險操作：抹除韌體分割區。' },
];
