// The tone of a fill notice (FillToasts.tsx), when the reader turned it on (preference `fill_sound`).

/** A short, quiet tone; nothing when the browser has no audio or refuses to play. */
export function playFillTone(): void {
  try {
    const audio = new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.value = 0.06;
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.12);
    oscillator.onended = () => void audio.close();
  } catch {
    // No sound is no harm: the toast says it already.
  }
}
