import type { Clock } from '../clock/clock';

/**
 * The device's local playback of downlink audio: each frame it plays takes the frame duration the server hello
 * announced, after the frames before it. In auto mode the firmware says `listen start` after `tts stop` only once
 * this has drained (xiaozhi §2.1), which is what makes that message evidence that the speech was played.
 */
export class PlaybackQueue {
  private endsAt = 0;

  constructor(private readonly clock: Clock) {}

  /** A frame handed to the speaker: it plays once the frames before it have. */
  played(frameMs: number): void {
    this.endsAt = Math.max(this.endsAt, this.clock.now()) + frameMs;
  }

  /** How long the frames received so far still take to play (0: drained). */
  remainingMs(): number {
    return Math.max(0, this.endsAt - this.clock.now());
  }
}
