import { useId } from 'react';
import { OVERLAPS, type Overlap } from './overlaps';

interface OverlapSelectProps {
  /** The field's label, saying what ends after the overlap. */
  label: string;
  value: Overlap;
  onChange: (overlap: Overlap) => void;
}

/** A labelled field choosing how long an old key or signing secret keeps working after a roll. */
export function OverlapSelect({ label, value, onChange }: OverlapSelectProps) {
  const selectId = useId();
  return (
    <div className="field">
      <label htmlFor={selectId}>{label}</label>
      <select id={selectId} value={value} onChange={(event) => onChange(event.target.value as Overlap)}>
        {OVERLAPS.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}
