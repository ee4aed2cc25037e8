/** The latest still of a stream on the CDN; public (no signature), a neutral picture until the first still. */
export const thumbnailUrl = (cdnUrl: string, streamId: string): string => `${cdnUrl}/_thumb/${streamId}.jpg`;
