export interface Request {
  query: Record<string, string | undefined>;
}

export interface Response {
  redirect(location: string): void;
}

export function afterLogin(_req: Request, res: Response): void {
  res.redirect('/home');
}
