import { test, expect } from '@playwright/test';
import { generateSecretKey } from 'nostr-tools/pure';
import { signIn } from './support/session.ts';

test('shots', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey(), '/explore');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('tab', { name: /Emberek/ }).click();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: '/tmp/h3-people-phone.png' });
  await page.locator('.person-row a.person-name').first().click();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: '/tmp/h3-profile-phone.png' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(300);
  const card = page.locator('[role="feed"] article[data-note-id]').first();
  await card.getByRole('button', { name: 'További műveletek' }).click();
  await page.getByRole('menuitem', { name: 'Szerző jelentése' }).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/h3-report.png' });
  await page.keyboard.press('Escape');
  await card.getByRole('button', { name: 'További műveletek' }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: '/tmp/h3-menu2.png' });
});
