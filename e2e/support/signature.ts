import type { Locator, Page } from 'playwright-core';

/** Draws a squiggle across a signature canvas with the mouse. */
export async function drawSignature(page: Page, canvas: Locator): Promise<void> {
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('signature canvas not visible');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.15, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(box.x + box.width * (0.15 + i * 0.05), y + (i % 2 === 0 ? -1 : 1) * box.height * 0.25, { steps: 3 });
  }
  await page.mouse.up();
}
