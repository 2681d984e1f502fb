import { style } from '@vanilla-extract/css';
import { breakpoint, font, radius, space, vars } from '../../styles/theme.css';

export const hero = style({
  padding: `${space.xxl} ${space.md}`, textAlign: 'center',
  background: `radial-gradient(ellipse at top, ${vars.color.surfaceRaised}, transparent 70%)`,
});
export const heroTitle = style({ fontSize: font.size.hero, margin: 0 });
export const heroName = style({ color: vars.color.accent, display: 'block' });
export const tagline = style({ color: vars.color.textMuted, fontSize: font.size.lg, maxWidth: 640, margin: `${space.md} auto ${space.xl}` });
export const emailForm = style({
  display: 'flex', flexDirection: 'column', gap: space.sm, maxWidth: 560, margin: '0 auto',
  '@media': { [breakpoint.medium]: { flexDirection: 'row' } },
});
export const emailInput = style({ flex: 1 });
export const badges = style({ display: 'flex', gap: space.md, justifyContent: 'center', flexWrap: 'wrap' });
export const badge = style({
  display: 'inline-flex', flexDirection: 'column', alignItems: 'flex-start', padding: `${space.sm} ${space.lg}`,
  borderRadius: radius.md, background: vars.color.text, color: vars.color.background, textDecoration: 'none', minWidth: 180,
  selectors: { '&:hover': { color: vars.color.background, opacity: 0.9 } },
});
export const badgeSmall = style({ fontSize: '0.7rem', textTransform: 'uppercase', letterSpacing: '0.08em' });
export const badgeLarge = style({ fontSize: font.size.lg, fontWeight: 700 });

export const faq = style({ maxWidth: 760, margin: '0 auto', padding: `${space.xl} ${space.md}` });
export const faqItem = style({ borderBottom: `1px solid ${vars.color.border}` });
export const faqTrigger = style({
  width: '100%', display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: space.md,
  background: 'none', border: 0, color: vars.color.text, font: 'inherit', fontWeight: 600, textAlign: 'left',
  padding: `${space.md} 0`, cursor: 'pointer', textWrap: 'pretty', // no lone last word (Bisaya questions run longer)
});
export const faqIndicator = style({ transition: 'transform 150ms', selectors: { '&[data-state="open"]': { transform: 'rotate(180deg)' } } });
export const faqContent = style({ color: vars.color.textMuted, paddingBottom: space.md });
export const faqHeading = style({ margin: 0, fontSize: font.size.md });
