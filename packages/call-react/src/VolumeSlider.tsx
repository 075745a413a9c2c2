/** A volume from 0 to 1 in steps of 5 %: the guest's call volume, the agent's per-participant one. */
export function VolumeSlider({ value, onChange, valueText, testId }: {
  value: number;
  onChange: (volume: number) => void;
  /** what a screen reader says for the value ("40%") */
  valueText?: string;
  testId: string;
}) {
  return (
    <input
      type="range"
      min={0}
      max={1}
      step={0.05}
      value={value}
      aria-valuetext={valueText}
      onChange={(e) => onChange(Number(e.target.value))}
      data-testid={testId}
    />
  );
}
