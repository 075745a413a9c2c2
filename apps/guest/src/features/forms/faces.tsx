// The five faces of an "emojies" rating, as icons: emoji glyphs depend on the device's fonts (some
// show empty boxes), icons look the same everywhere and take the company's colours.
import Angry from 'lucide-react/icons/angry';
import Frown from 'lucide-react/icons/frown';
import Meh from 'lucide-react/icons/meh';
import Smile from 'lucide-react/icons/smile';
import Laugh from 'lucide-react/icons/laugh';

const FACES = [Angry, Frown, Meh, Smile, Laugh] as const;

/** The face of score 1…5. */
export function Face({ score, size = 40, className }: { score: number; size?: number; className?: string }) {
  const Icon = FACES[Math.min(5, Math.max(1, score)) - 1] ?? Meh;
  return <Icon size={size} className={className} aria-hidden="true" />;
}
