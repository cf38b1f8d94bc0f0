export interface Request {
  query: Record<string, string | undefined>;
}

export interface Response {
  redirect(location: string): void;
}

export function afterLogin(req: Request, res: Response): void {
  const next = req.query.next ?? '/home';
  res.redirect(next);
}
