/** Explains a photo a device took (`self.camera.take_photo`), answering the user's question about it. */
export interface VisionProvider {
  explain(question: string, image: Buffer, mimeType: string, signal?: AbortSignal): Promise<string>;
}
